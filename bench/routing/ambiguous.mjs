/**
 * The seeded high-ambiguity routing catalog and its labelled request set. Providers of four domains
 * expose endpoints with overlapping names ("get_data", "query", …) and near-identical descriptions;
 * only the declared fields (semantic IDs, units, qualifiers) tell them apart. Every third provider
 * also has an `mcp` access mode exposing the same data under other field names, bridged by aliases.
 * Labels are derived from the declared fields, never from any method's output.
 *
 * Unsupported requests: the fixed list of concepts.mjs (`unsupported-near`, `unsupported-far`) plus
 * three generated near-domain kinds per seed, each checked against the seed's declared fields:
 *   unsupported-field     — a concept of the same domain that no endpoint declares (UNDECLARED; report
 *                           seeds draw from the report half, every other seed from the tuning half);
 *   unsupported-unit      — a declared concept in a unit no endpoint declares for it;
 *   unsupported-qualifier — a declared concept with a qualifier (key=value) that the catalog declares
 *                           only on another concept of the domain.
 * Each kind has NEAR_PER_KIND requests per seed, half free text and half structured (semanticIds/units).
 */

import { endpoint, field, param, random, registryOf, tool } from "./catalogs.mjs";
import {
  DOMAINS,
  FOREIGN_UNITS,
  QUALIFIER_PHRASE,
  REPORT_SEEDS,
  UNDECLARED,
  UNSUPPORTED,
} from "./concepts.mjs";

const SYLLABLES = [
  "ar",
  "bo",
  "cel",
  "da",
  "fen",
  "gro",
  "hal",
  "ix",
  "jun",
  "kor",
  "lum",
  "mo",
  "nex",
  "or",
  "pra",
  "quo",
  "ris",
  "sol",
  "tav",
  "ur",
  "vex",
  "wyn",
];
const LEADS = ["", "", "", "get the ", "latest ", "I need "];

function brand(rand, taken) {
  for (;;) {
    const name = Array.from(
      { length: 2 + Math.floor(rand() * 2) },
      () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)],
    ).join("");
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

function variantField(variant, alt) {
  const { concept, unit, qualifiers } = variant;
  return field(alt ? concept.alt : concept.field, {
    semanticId: concept.key,
    ...(unit !== undefined ? { unit } : {}),
    ...(qualifiers !== undefined ? { qualifiers } : {}),
    ...(alt ? { aliases: [concept.field] } : {}),
    provenance: "provider-network",
    license: "CC-BY-4.0",
  });
}

/** Builds the tools of one seed: `scale` multiplies every domain's provider count. */
function buildTools(rand, scale) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const tools = [];
  const taken = new Set();
  for (const domain of DOMAINS) {
    const providers = Math.max(1, Math.round(domain.providers * scale));
    for (let p = 0; p < providers; p++) {
      const provider = brand(rand, taken);
      const count = 1 + Math.floor(rand() * domain.endpoints.length);
      const endpoints = [];
      for (let e = 0; e < count; e++) {
        const size = Math.min(domain.concepts.length, 2 + Math.floor(rand() * 3));
        const chosen = new Map();
        while (chosen.size < size) {
          const concept = pick(domain.concepts);
          if (!chosen.has(concept.key)) {
            chosen.set(concept.key, {
              concept,
              unit: pick(concept.units),
              qualifiers: pick(concept.qualifiers),
            });
          }
        }
        endpoints.push({
          name: domain.endpoints[e],
          description: pick(domain.descriptions),
          variants: [...chosen.values()],
        });
      }
      const toolDescription = pick(domain.toolDescriptions);
      for (const mode of p % 3 === 0 ? ["rest", "mcp"] : ["rest"]) {
        const alt = mode === "mcp";
        const specs = endpoints.map(({ name, description, variants }) =>
          endpoint(name, {
            description,
            parameters: domain.parameters.map(([pname, required]) => param(pname, required === true)),
            fields: [
              field("record_id", { identifier: true, schema: { type: "string" }, datatype: "string" }),
              field("observed_at", { schema: { type: "string" }, datatype: "string" }),
              ...variants.map((variant) => variantField(variant, alt)),
            ],
          }),
        );
        tools.push(
          tool(`${provider}_${mode}`, specs, {
            provider,
            accessMode: mode,
            remote: true,
            description: toolDescription,
          }),
        );
      }
    }
  }
  return tools;
}

function conceptOf(key) {
  for (const domain of DOMAINS) {
    const concept = domain.concepts.find((c) => c.key === key);
    if (concept !== undefined) return { domain, concept };
  }
  return undefined;
}

/** Routes that declare a field answering `need` (same semantic ID; unit and qualifiers when stated). */
export function acceptableRoutes(tools, need) {
  const routes = [];
  for (const spec of tools) {
    for (const ep of spec.endpoints) {
      const ok = ep.fields.some(
        (f) =>
          f.semanticId === need.key &&
          (need.unit === undefined || f.unit === need.unit) &&
          Object.entries(need.qualifiers ?? {}).every(([k, v]) => f.qualifiers?.[k] === v),
      );
      if (ok) routes.push(`${spec.name}.${ep.name}`);
    }
  }
  return routes;
}

/** Every distinct (semantic ID, unit, qualifiers) variant the catalog declares, in a stable order. */
function variantsOf(tools) {
  const seen = new Map();
  for (const spec of tools) {
    for (const ep of spec.endpoints) {
      for (const f of ep.fields) {
        if (f.semanticId === undefined) continue;
        const id = JSON.stringify([f.semanticId, f.unit ?? null, f.qualifiers ?? null]);
        if (!seen.has(id)) seen.set(id, { key: f.semanticId, unit: f.unit, qualifiers: f.qualifiers });
      }
    }
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
}

/** A need as the request states it: the unit and the qualifiers are each stated with probability 3/4. */
function stateNeed(rand, variant) {
  return {
    key: variant.key,
    unit: variant.unit !== undefined && rand() < 0.75 ? variant.unit : undefined,
    qualifiers: variant.qualifiers !== undefined && rand() < 0.75 ? variant.qualifiers : undefined,
  };
}

function needText(need, withUnit) {
  const { concept } = conceptOf(need.key);
  const qualifier = Object.entries(need.qualifiers ?? {})
    .map(([k, v]) => QUALIFIER_PHRASE[k](v))
    .join(" ");
  return [concept.phrase, withUnit && need.unit !== undefined ? `in ${need.unit}` : "", qualifier]
    .filter((s) => s.length > 0)
    .join(" ");
}

/** The request for `needs` in one form: `text` puts everything in the query, `structured` uses the typed keys. */
function requestFor(rand, needs, structured) {
  const lead = LEADS[Math.floor(rand() * LEADS.length)];
  const context = needs.length === 1 && rand() < 0.3 ? ` ${conceptOf(needs[0].key).domain.context}` : "";
  const query = `${lead}${needs.map((need) => needText(need, !structured)).join(" and ")}${context}`;
  if (!structured) return { query };
  const units = [...new Set(needs.map((n) => n.unit).filter((u) => u !== undefined))];
  return { query, semanticIds: needs.map((n) => n.key), ...(units.length > 0 ? { units } : {}) };
}

/** Generated near-domain unsupported requests per kind and seed (half text, half structured). */
export const NEAR_PER_KIND = 12;

/** A near-domain unsupported request: `phrase` (+ unit, + qualifier text) as text or structured. */
function unsupportedRequest(rand, { phrase, key, unit, qualifier, context }, structured) {
  const lead = LEADS[Math.floor(rand() * LEADS.length)];
  const where = rand() < 0.3 ? ` ${context}` : "";
  const unitText = unit !== undefined && !structured ? ` in ${unit}` : "";
  const qualifierText = qualifier !== undefined ? ` ${qualifier}` : "";
  const query = `${lead}${phrase}${unitText}${qualifierText}${where}`;
  if (!structured) return { query };
  return { query, semanticIds: [key], ...(unit !== undefined ? { units: [unit] } : {}) };
}

/** Does any endpoint declare a field for `key` (with `unit`, and with every qualifier of `qualifiers`)? */
function declares(tools, key, unit, qualifiers) {
  return acceptableRoutes(tools, { key, unit, qualifiers }).length > 0;
}

/** The three generated near-domain unsupported kinds for one seed (see the module comment). */
function nearUnsupported(rand, tools, seed) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const split = REPORT_SEEDS.includes(seed) ? "report" : "tuning";
  const variants = variantsOf(tools);
  const declaredKeys = [...new Set(variants.map((v) => v.key))];
  const pools = {
    field: UNDECLARED.filter((u) => u.split === split).map((u) => {
      const domain = DOMAINS.find((d) => d.name === u.domain);
      return { key: u.key, phrase: u.phrase, units: [u.unit, undefined], context: domain.context };
    }),
    unit: declaredKeys.flatMap((key) => {
      const { domain, concept } = conceptOf(key);
      const units = [...new Set([...concept.units, ...(FOREIGN_UNITS[key] ?? [])])].filter(
        (unit) => unit !== undefined && !declares(tools, key, unit),
      );
      return units.map((unit) => ({ key, phrase: concept.phrase, unit, context: domain.context }));
    }),
    qualifier: declaredKeys.flatMap((key) => {
      const { domain, concept } = conceptOf(key);
      const foreign = new Map();
      for (const v of variants) {
        if (v.key === key || conceptOf(v.key).domain !== domain) continue;
        for (const [k, value] of Object.entries(v.qualifiers ?? {})) {
          if (!declares(tools, key, undefined, { [k]: value })) foreign.set(`${k}=${value}`, [k, value]);
        }
      }
      return [...foreign.values()].map(([k, value]) => ({
        key,
        phrase: concept.phrase,
        qualifier: QUALIFIER_PHRASE[k](value),
        qualifiers: { [k]: value },
        context: domain.context,
      }));
    }),
  };
  const cases = [];
  const seen = new Set();
  for (const [kind, pool] of Object.entries(pools)) {
    for (
      let made = 0, tries = 0;
      made < NEAR_PER_KIND && tries < NEAR_PER_KIND * 50 && pool.length > 0;
      tries++
    ) {
      const item = pick(pool);
      const unit = item.units !== undefined ? pick(item.units) : item.unit;
      const structured = made % 2 === 1;
      const request = unsupportedRequest(rand, { ...item, unit }, structured);
      const id = JSON.stringify(request);
      if (seen.has(id)) continue;
      seen.add(id);
      // The label rule, checked rather than assumed: no endpoint answers what the request states.
      if (declares(tools, item.key, unit, item.qualifiers)) continue;
      cases.push({
        form: `unsupported-${kind}`,
        request,
        concept: item.key,
        ...(unit !== undefined ? { unit } : {}),
        ...(item.qualifiers !== undefined ? { qualifiers: item.qualifiers } : {}),
      });
      made++;
    }
  }
  return cases;
}

/**
 * The catalog and labelled cases for `seed`: `text` and `structured` single-need requests, `multi`
 * two-need requests (alternating text/structured), then the fixed unsupported requests, then the
 * generated near-domain unsupported kinds.
 */
export function ambiguousCatalog({ seed = 1, scale = 1, text = 60, structured = 60, multi = 30 } = {}) {
  const rand = random(seed);
  const tools = buildTools(rand, scale);
  const variants = variantsOf(tools);
  const cases = [];
  const seen = new Set();
  const add = (form, needs, request) => {
    const id = JSON.stringify(request);
    if (seen.has(id)) return false;
    seen.add(id);
    const required = needs.map((need) => acceptableRoutes(tools, need));
    cases.push({ id: `${form}-${cases.length + 1}`, form, request, needs, required, supported: true });
    return true;
  };
  const draw = () => stateNeed(rand, variants[Math.floor(rand() * variants.length)]);
  for (const [form, count] of [
    ["text", text],
    ["structured", structured],
  ]) {
    for (let made = 0, tries = 0; made < count && tries < count * 20; tries++) {
      const needs = [draw()];
      if (add(form, needs, requestFor(rand, needs, form === "structured"))) made++;
    }
  }
  for (let made = 0, tries = 0; made < multi && tries < multi * 20; tries++) {
    const needs = [draw(), draw()];
    if (needs[0].key === needs[1].key) continue;
    if (add("multi", needs, requestFor(rand, needs, made % 2 === 1))) made++;
  }
  UNSUPPORTED.forEach(({ tag, request }, i) => {
    cases.push({
      id: `unsupported-${i + 1}`,
      form: `unsupported-${tag}`,
      request,
      needs: [],
      required: [],
      supported: false,
    });
  });
  // A separate stream, so the supported cases of a seed do not depend on the unsupported generator.
  nearUnsupported(random(seed ^ 0x0dd5eed), tools, seed).forEach((c, i) => {
    cases.push({
      id: `${c.form}-${i + 1}`,
      form: c.form,
      request: c.request,
      concept: c.concept,
      ...(c.unit !== undefined ? { unit: c.unit } : {}),
      ...(c.qualifiers !== undefined ? { qualifiers: c.qualifiers } : {}),
      needs: [],
      required: [],
      supported: false,
    });
  });
  const kinds = Object.fromEntries(tools.map((t) => [t.name, t.accessMode === "mcp" ? "mcp" : "openapi"]));
  const endpoints = tools.reduce((sum, t) => sum + t.endpoints.length, 0);
  return { seed, tools, endpoints, registry: registryOf(tools, kinds), cases };
}
