/**
 * The seeded high-ambiguity routing catalog and its labelled request set. Providers of four domains
 * expose endpoints with overlapping names ("get_data", "query", …) and near-identical descriptions;
 * only the declared fields (semantic IDs, units, qualifiers) tell them apart. Every third provider
 * also has an `mcp` access mode exposing the same data under other field names, bridged by aliases.
 * Labels are derived from the declared fields, never from any method's output.
 */

import { endpoint, field, param, random, registryOf, tool } from "./catalogs.mjs";
import { DOMAINS, QUALIFIER_PHRASE, UNSUPPORTED } from "./concepts.mjs";

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
function acceptableRoutes(tools, need) {
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

/**
 * The catalog and labelled cases for `seed`: `text` and `structured` single-need requests, `multi`
 * two-need requests (alternating text/structured), then the fixed unsupported requests.
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
  const kinds = Object.fromEntries(tools.map((t) => [t.name, t.accessMode === "mcp" ? "mcp" : "openapi"]));
  const endpoints = tools.reduce((sum, t) => sum + t.endpoints.length, 0);
  return { seed, tools, endpoints, registry: registryOf(tools, kinds), cases };
}
