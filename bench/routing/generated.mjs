/**
 * The n-endpoint generated catalog for latency benchmarks: a plain-JS port of `generatedCatalog` in
 * test/fixtures/catalogs.ts (same PRNG, same draw order, so the same seed gives the same catalog).
 */
import { endpoint, field, param, random, registryOf, tool } from "./specs.mjs";

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ra",
  "ten",
  "vo",
  "qui",
  "zel",
  "bar",
  "nu",
  "pho",
  "dri",
  "sta",
  "gen",
  "lux",
  "tor",
];
const UNITS = ["m", "s", "kg", "K", "degC", "hPa", "m/s", "%", "mm", "ppm", undefined, undefined];
const EFFECTS = ["read", "read", "read", "write", "destructive"];

function vocabulary(size, rand) {
  const words = new Set();
  while (words.size < size) {
    const n = 2 + Math.floor(rand() * 2);
    let word = "";
    for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/** `endpoints` endpoints over tools of `perTool` endpoints, deterministic for a seed. */
export function generatedCatalog(endpoints, options = {}) {
  const rand = random(options.seed ?? 1);
  const words = vocabulary(options.vocabulary ?? 2000, rand);
  const word = () => words[Math.floor(rand() * words.length)];
  const perTool = options.perTool ?? 25;
  const tools = [];
  const specs = [];
  for (let t = 0; t * perTool < endpoints; t++) {
    const list = [];
    for (let e = 0; e < perTool && t * perTool + e < endpoints; e++) {
      const fields = Array.from({ length: 4 }, (_, i) => {
        const unit = UNITS[Math.floor(rand() * UNITS.length)];
        return field(`${word()}_${word()}_${i}`, {
          semanticId: `sem:${word()}`,
          ...(unit !== undefined ? { unit } : {}),
          ...(rand() < 0.3 ? { qualifiers: { level: word() } } : {}),
          ...(rand() < 0.3 ? { aliases: [word()] } : {}),
        });
      });
      const spec = endpoint(`${word()}_${word()}_${e}`, {
        description: Array.from({ length: 8 }, word).join(" "),
        effect: EFFECTS[Math.floor(rand() * EFFECTS.length)],
        parameters: [param(`${word()}Id`, true), param(word())],
        fields: [
          field("id", { identifier: true, schema: { type: "string" }, datatype: "string" }),
          ...fields,
        ],
      });
      list.push(spec);
      specs.push(spec);
    }
    const provider = `prov_${t % Math.max(1, Math.floor(endpoints / perTool / 3))}`;
    tools.push(
      tool(`tool_${t}`, list, {
        provider,
        accessMode: t % 2 === 0 ? "rest" : "mcp",
        description: Array.from({ length: 6 }, word).join(" "),
      }),
    );
  }
  const queries = [];
  for (let q = 0; q < (options.queries ?? 100); q++) {
    const spec = specs[Math.floor(rand() * specs.length)];
    const f = spec.fields[1 + Math.floor(rand() * 4)];
    const terms = [spec.name.split("_")[0], f.id.split("_")[0], word()];
    queries.push(
      q % 4 === 0 ? { query: terms.join(" "), semanticIds: [f.semanticId] } : { query: terms.join(" ") },
    );
  }
  return { tools, registry: registryOf(tools), queries };
}
