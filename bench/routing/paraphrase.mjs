/**
 * The paraphrase benchmark (bench/routing/paraphrase.json): free-text requests that name a field of the
 * high-ambiguity catalog only by description-level words, synonyms, morphology, or units and
 * qualifiers in words. The set is data, fixed before tuning; this module loads it, checks its rule
 * (no request shares a token — words.mjs, the frozen plain tokenizer — with its concept's field name,
 * alias, phrase or semantic ID) and
 * labels it against one seed's catalog from the declared contracts.
 */
import { readFileSync } from "node:fs";
import { acceptableRoutes } from "./ambiguous.mjs";
import { DOMAINS, UNDECLARED } from "./concepts.mjs";
import { words as tokenize } from "./words.mjs";

const SET = new URL("./paraphrase.json", import.meta.url);

/** Words that name a concept: field name, alias, phrase and semantic ID, as tokens (words.mjs). */
function namingTokens(key) {
  for (const domain of DOMAINS) {
    const c = domain.concepts.find((concept) => concept.key === key);
    if (c !== undefined) return new Set(tokenize([c.field, c.alt, c.phrase, c.key].join(" ")));
  }
  const u = UNDECLARED.find((concept) => concept.key === key);
  if (u !== undefined) return new Set(tokenize([u.phrase, u.key].join(" ")));
  throw new Error(`paraphrase.json names concept ${key}, which is neither in DOMAINS nor in UNDECLARED`);
}

/** The labelled set as stored, after checking its rule; throws on a request that breaks it. */
export function paraphraseSet() {
  const doc = JSON.parse(readFileSync(SET, "utf8"));
  const ids = new Set();
  for (const r of doc.requests) {
    if (ids.has(r.id)) throw new Error(`paraphrase.json: duplicate id ${r.id}`);
    ids.add(r.id);
    const banned = namingTokens(r.need.key);
    const shared = tokenize(r.query).filter((t) => banned.has(t));
    if (shared.length > 0) {
      throw new Error(`paraphrase.json ${r.id} "${r.query}" names its field (${shared.join(", ")})`);
    }
    if (!r.supported && DOMAINS.some((d) => d.concepts.some((c) => c.key === r.need.key))) {
      throw new Error(
        `paraphrase.json ${r.id} is marked unsupported but ${r.need.key} is a declared concept`,
      );
    }
  }
  return doc;
}

/**
 * The cases of the set on one catalog (`tools` of ambiguousCatalog), restricted to `split` when given.
 * A supported request whose need no endpoint of this catalog answers (a unit or qualifier this seed
 * does not declare) is left out of the seed and counted in `notApplicable`.
 */
export function paraphraseCases(tools, { split } = {}) {
  const cases = [];
  let notApplicable = 0;
  for (const r of paraphraseSet().requests) {
    if (split !== undefined && r.split !== split) continue;
    const required = r.supported ? [acceptableRoutes(tools, r.need)] : [];
    if (r.supported && required[0].length === 0) {
      notApplicable++;
      continue;
    }
    // The label rule holds for unsupported requests too: nothing declares their concept.
    if (!r.supported && acceptableRoutes(tools, r.need).length > 0) {
      throw new Error(`paraphrase.json ${r.id}: ${r.need.key} is declared by this catalog`);
    }
    cases.push({
      id: r.id,
      form: r.supported ? `paraphrase-${r.rule}` : "paraphrase-unsupported",
      request: { query: r.query },
      needs: r.supported ? [r.need] : [],
      required,
      supported: r.supported,
    });
  }
  return { cases, notApplicable };
}
