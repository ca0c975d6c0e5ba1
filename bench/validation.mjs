/**
 * `npm run bench:validation`: worst-case output-validation time per KB of response, for the shapes a
 * hostile server or schema can choose (docs/runtime/execution-boundary.md, "Validation cost"):
 * formats with backtracking expressions, `uniqueItems` over objects, many patterns, deep nesting.
 * Measured against the named peer, ajv 8 with ajv-formats' own formats and ajv's own `uniqueItems`
 * (what the runtime used before), on the same inputs in the same run. Sizes are kept where the peer
 * still finishes in seconds; the ratio is ours ÷ peer (lower is better).
 *
 *   node bench/validation.mjs [--runs=5]
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "./lib/paths.mjs";
import { environment, fmt, summarize, table } from "./lib/stats.mjs";

const require = createRequire(import.meta.url);
const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=")));
const runs = Number(args.runs ?? 5);

const { ValidatorSet } = await import(pathToFileURL(join(REPO, "runtime/dist/boundary/validation.js")).href);
const { Ajv2020 } = require("ajv/dist/2020.js");
const addFormats = require("ajv-formats");

function peer(schema) {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value) => validate(value);
}

function ours(schema) {
  const set = new ValidatorSet();
  return (value) => set.validate(schema, value);
}

const CASES = [
  {
    name: "format url, 20 KB string",
    schema: { type: "string", format: "url" },
    value: `http://${":".repeat(20_000)}`,
  },
  {
    name: "format email, 60 KB string",
    schema: { type: "string", format: "email" },
    value: `${"a.".repeat(30_000)}@`,
  },
  {
    name: "format hostname, 60 KB string",
    schema: { type: "string", format: "hostname" },
    value: `${"a-".repeat(30_000)}.`,
  },
  {
    name: "format uri, 60 KB string",
    schema: { type: "string", format: "uri" },
    value: `a:${"%".repeat(60_000)}`,
  },
  {
    name: "uniqueItems, 3,000 objects",
    schema: { type: "array", uniqueItems: true },
    value: Array.from({ length: 3000 }, (_, index) => ({ id: index, tags: [index, { k: index }] })),
  },
  {
    name: "10,000 date-time strings",
    schema: { type: "array", items: { type: "string", format: "date-time" } },
    value: Array.from({ length: 10_000 }, (_, index) => new Date(index * 1000).toISOString()),
  },
];

const rows = [["Case", "KB", "schemarouter ms/KB", "peer ms/KB", "ratio"]];
for (const { name, schema, value } of CASES) {
  const kb = Buffer.byteLength(JSON.stringify(value)) / 1024;
  const validators = { ours: ours(schema), peer: peer(schema) };
  const samples = { ours: [], peer: [] };
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"]) {
      const started = performance.now();
      validators[side](value);
      samples[side].push(performance.now() - started);
    }
  }
  const a = summarize(samples.ours).median / kb;
  const b = summarize(samples.peer).median / kb;
  rows.push([name, fmt(kb), fmt(a), fmt(b), `${fmt(a / b)}×`]);
}
console.log(table(rows));
console.log(`\n${JSON.stringify(environment())}`);
