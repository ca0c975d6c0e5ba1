/**
 * `npm run bench:embeddings`: what the optional embedder costs on GitHub REST (@octokit/openapi), each
 * measured against the same step without it in the same run (docs/runtime/embeddings.md, "Cost"):
 * a full `schemarouter compile` with and without `embedder` in the config, the artifact's size, the
 * router's load, and one retrieval (`retrieveWithEmbeddings` against lexical `retrieve`). The embedder
 * is the repository's deterministic trigram embedder (test/fixtures/embeddings), so the numbers are
 * SchemaRouter's own overhead; a hosted model adds its API latency per batch of 128 texts.
 *
 *   node bench/embeddings.mjs [--runs=3]
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../compiler/dist/index.js";
import { SchemaRouter } from "../runtime/dist/index.js";
import { trigramEmbedder } from "../test/fixtures/embeddings/trigram-embedder.mjs";
import { GITHUB_DOCUMENT, REPO } from "./lib/paths.mjs";
import { environment, fmt, summarize, table } from "./lib/stats.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const runs = Number(args.runs ?? 3);
const EMBEDDER = join(REPO, "test/fixtures/embeddings/trigram-embedder.mjs");
const base = join(REPO, "bench", ".tmp", "embeddings");
/** Requests a developer would type (free text, some with requested fields). */
const QUERIES = [
  { query: "get a repository" },
  { query: "star count of a repository", fields: ["stargazers_count"] },
  { query: "delete a repository" },
  { query: "list open pull requests for a repository" },
  { query: "create an issue comment" },
  { query: "list commits on a branch" },
  { query: "download workflow run logs" },
  { query: "get the latest release of a repository" },
  { query: "who follows this user", fields: ["followers"] },
  { query: "how many people watch this project" },
  { query: "list the organization members" },
  { query: "get the rate limit status" },
];

function project(name, withEmbedder) {
  const dir = join(base, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = join(dir, "schemarouter.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      outDir: "out",
      sources: { github: { kind: "openapi", location: GITHUB_DOCUMENT } },
      ...(withEmbedder ? { embedder: { module: EMBEDDER, model: "trigram-256" } } : {}),
    }),
  );
  return {
    dir,
    config,
    lockfile: join(dir, "schemarouter.lock.json"),
    artifact: join(dir, "out/artifacts/github.json"),
  };
}

const plain = project("plain", false);
const vectors = project("vectors", true);
const time = async (run) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

// Compile: interleaved, every run from the document (incremental off).
const compileMs = { plain: [], vectors: [] };
for (let i = 0; i < runs; i++) {
  compileMs.plain.push(await time(() => compile({ config: plain.config, incremental: false })));
  compileMs.vectors.push(await time(() => compile({ config: vectors.config, incremental: false })));
}
const bytes = { plain: statSync(plain.artifact).size, vectors: statSync(vectors.artifact).size };

// Load: the lockfile and artifact verified, and (with the embedder) the vectors checked and decoded.
const embedder = trigramEmbedder();
const loadMs = { plain: [], vectors: [] };
for (let i = 0; i < runs * 3; i++) {
  loadMs.plain.push(await time(async () => (await SchemaRouter.load({ lockfile: plain.lockfile })).close()));
  loadMs.vectors.push(
    await time(async () => (await SchemaRouter.load({ lockfile: vectors.lockfile, embedder })).close()),
  );
}

// Retrieval: one request, k = 5, warm (the index and vectors built by a first pass).
const router = await SchemaRouter.load({ lockfile: vectors.lockfile, embedder });
for (const request of QUERIES) {
  router.retrieve(request);
  await router.retrieveWithEmbeddings(request);
}
const retrieveMs = { lexical: [], vectors: [] };
for (let pass = 0; pass < 5; pass++) {
  for (const request of QUERIES) {
    retrieveMs.lexical.push(await time(() => router.retrieve(request)));
    retrieveMs.vectors.push(await time(() => router.retrieveWithEmbeddings(request)));
  }
}
const section = router.catalog.artifacts.get("github").embeddings;
const routes = Object.keys(section.routes).length;
await router.close();

const m = (samples) => summarize(samples).median;
const lo = (samples) => summarize(samples).min;
const rows = [
  ["Step (GitHub REST)", "with embedder", "without (peer)", "ratio of medians", "ratio of minima"],
  [
    "full compile (ms, median)",
    fmt(m(compileMs.vectors)),
    fmt(m(compileMs.plain)),
    `${fmt(m(compileMs.vectors) / m(compileMs.plain))}×`,
    `${fmt(lo(compileMs.vectors) / lo(compileMs.plain))}×`,
  ],
  [
    "artifact size (MB)",
    fmt(bytes.vectors / 2 ** 20),
    fmt(bytes.plain / 2 ** 20),
    `${fmt(bytes.vectors / bytes.plain)}×`,
    "—",
  ],
  [
    "SchemaRouter.load (ms, median)",
    fmt(m(loadMs.vectors)),
    fmt(m(loadMs.plain)),
    `${fmt(m(loadMs.vectors) / m(loadMs.plain))}×`,
    `${fmt(lo(loadMs.vectors) / lo(loadMs.plain))}×`,
  ],
  [
    "one retrieval, k = 5 (ms, median)",
    fmt(m(retrieveMs.vectors)),
    fmt(m(retrieveMs.lexical)),
    `${fmt(m(retrieveMs.vectors) / m(retrieveMs.lexical))}×`,
    `${fmt(lo(retrieveMs.vectors) / lo(retrieveMs.lexical))}×`,
  ],
];
const env = environment();
process.stdout.write(
  `${table(rows)}\n\n${routes} routes, ${section.vectors.length} distinct vectors of dimension ${section.dimension}; ` +
    `${runs} compile runs, ${runs * 3} loads, ${retrieveMs.lexical.length} retrievals. ` +
    `Node ${env.node}, ${env.cpu} × ${env.cpus}, load average ${env.loadAverage}.\n`,
);
rmSync(base, { recursive: true, force: true });
