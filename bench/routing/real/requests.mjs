/**
 * The labelled requests of the real-catalog benchmark. Two sets:
 *
 * Generated, from every operation's own summary, by a rule fixed before tuning:
 *   1. normalize the summary: drop bracketed notes ("[Deprecated] "), a trailing period, collapse spaces;
 *   2. pick one of four rewrites by fnv1a(`${seed}:${route}`) % 4:
 *        0 "<summary, lower-cased>"
 *        1 "how do i <summary, lower-cased>"
 *        2 "i need to <summary, lower-cased>"
 *        3 "<summary, lower-cased>" with the leading verb's -s/-es dropped and the articles a/an/the removed;
 *   3. label = that operation plus every operation of the same catalog with an identical normalized
 *      summary (case-insensitive);
 *   4. split = fnv1a(route) % 2: 0 → tuning, 1 → report (independent of the seed).
 * Seeds change only the rewrite chosen per operation.
 *
 * Developer requests (developer.json): typed by hand, each with every answering operation and why.
 */
import { readFileSync } from "node:fs";

/** Rewrite seeds: tune with TUNING_SEEDS, report with REPORT_SEEDS (medians over them). */
export const REAL_TUNING_SEEDS = Object.freeze([1, 2, 3]);
export const REAL_REPORT_SEEDS = Object.freeze([101, 102, 103]);

/** 32-bit FNV-1a of a string. */
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Step 1 of the rule. */
export function normalizeSummary(summary) {
  return summary
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.$/, "");
}

/** The split of an operation (step 4). */
export function splitOf(route) {
  return fnv1a(route) % 2 === 0 ? "tuning" : "report";
}

const ARTICLES = new Set(["a", "an", "the"]);

/** Rewrite 3: the leading verb without -s/-es, and no articles. */
function terse(text) {
  const words = text.split(" ");
  const first = words[0] ?? "";
  if (/[^s]s$/.test(first) && first.length > 3) {
    words[0] = /(ss|sh|ch|x|z)es$/.test(first) ? first.slice(0, -2) : first.slice(0, -1);
  }
  return words.filter((w, i) => i === 0 || !ARTICLES.has(w)).join(" ");
}

/** Step 2 of the rule. */
export function rewrite(summary, route, seed) {
  const text = normalizeSummary(summary).toLowerCase();
  switch (fnv1a(`${seed}:${route}`) % 4) {
    case 0:
      return { rewrite: "lower-cased", query: text };
    case 1:
      return { rewrite: "how do i", query: `how do i ${text}` };
    case 2:
      return { rewrite: "i need to", query: `i need to ${text}` };
    default:
      return { rewrite: "terse", query: terse(text) };
  }
}

/**
 * The generated cases of one catalog ({ name, endpoints } of realCatalog) for one seed, restricted to
 * `split` when given. Operations without a summary are left out (none of the shipped catalogs has one).
 */
export function generatedCases(catalog, seed, { split } = {}) {
  const bySummary = new Map();
  for (const e of catalog.endpoints) {
    const key = normalizeSummary(e.summary).toLowerCase();
    if (key === "") continue;
    if (!bySummary.has(key)) bySummary.set(key, []);
    bySummary.get(key).push(e.route);
  }
  const cases = [];
  for (const e of catalog.endpoints) {
    const key = normalizeSummary(e.summary).toLowerCase();
    if (key === "") continue;
    const caseSplit = splitOf(e.route);
    if (split !== undefined && caseSplit !== split) continue;
    const { query, rewrite: rule } = rewrite(e.summary, e.route, seed);
    cases.push({
      id: `${catalog.name}:${e.route}`,
      catalog: catalog.name,
      form: "summary",
      rewrite: rule,
      request: { query },
      labels: bySummary.get(key),
      split: caseSplit,
    });
  }
  return cases;
}

/** The developer requests (developer.json) of one catalog, restricted to `split` when given. */
export function developerCases(catalogName, { split } = {}) {
  const doc = JSON.parse(readFileSync(new URL("./developer.json", import.meta.url), "utf8"));
  return doc.requests
    .filter((r) => r.catalog === catalogName && (split === undefined || r.split === split))
    .map((r) => ({
      id: r.id,
      catalog: r.catalog,
      form: "developer",
      request: { query: r.query },
      labels: r.labels,
      reason: r.reason,
      split: r.split,
      set: r.set,
    }));
}
