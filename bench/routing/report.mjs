/**
 * Markdown printout of the routing benchmarks: environment, the quality tables (with how thresholds
 * were chosen), the latency and index tables, and the ratios where they mean something.
 */
import { A_PRIORI, SETTINGS } from "./metrics.mjs";
import { num, pct, spread, summarize, table } from "./stats.mjs";

export function environmentText(env) {
  return `Environment: Node ${env.node}, ${env.platform}, ${env.cpu} × ${env.cpus} CPUs, ${env.memoryGb} GB RAM, load average ${env.loadAverage} at start.`;
}

const SHORT = {
  SchemaRouter: "SchemaRouter",
  "lexical overlap (baseline)": "lexical overlap (baseline a)",
  "BM25 k1=1.2 b=0.75 (baseline)": "BM25 name+description (baseline b)",
  "BM25 over all surface text (extra baseline)": "BM25 all surface text (extra baseline)",
};
const short = (name) => SHORT[name] ?? name;

const rangeOf = (values, format) => spread(summarize(values), format);

/** Median of a row's metric, as a percentage. */
const med = (row, metric) => (row === undefined ? "n/a" : pct(row[metric].median));

function finder(rows, bench) {
  return (method, setting, form) =>
    rows.find((r) => r.bench === bench && r.method === method && r.setting === setting && r.form === form);
}

export function qualityText(results) {
  const facts = results.filter((r) => r.bench === "routing-catalog");
  const rows = results.filter((r) => r.bench === "routing-quality");
  const at = finder(rows, "routing-quality");
  const methods = [...new Set(rows.map((r) => r.method))];
  const seeds = facts.map((f) => f.seed);
  const out = [];
  out.push("### Routing quality: high-ambiguity catalog");
  out.push("");
  const tools = rangeOf(
    facts.map((f) => f.tools),
    String,
  );
  const endpoints = rangeOf(
    facts.map((f) => f.endpoints),
    String,
  );
  const answering = rangeOf(
    facts.map((f) => f.answeringPerNeed),
    (v) => v.toFixed(1),
  );
  const forms = facts[0].forms;
  out.push(
    `Catalog per seed (${facts[0].split} seeds ${seeds.join(", ")}): 4 domains (weather, ocean, materials, finance), ${tools} tools, ` +
      `${endpoints} endpoints named get_data/query/…, near-identical descriptions; endpoints differ only in fields ` +
      `(semantic IDs, units, qualifiers). Each need is answered by ${answering} endpoints on average. Requests per seed: ` +
      `${facts[0].supported} supported (${forms.text} free text, ${forms.structured} structured with semanticIds/units, ` +
      `${forms.multi} two-need) + ${facts[0].unsupported} unsupported (${forms["unsupported-near"]} near-domain from the fixed list, ` +
      `${forms["unsupported-field"]} undeclared field of the domain, ${forms["unsupported-unit"]} unit no endpoint offers, ` +
      `${forms["unsupported-qualifier"]} qualifier of another field, ${forms["unsupported-far"]} out-of-domain). ` +
      "Labels come from the declared fields, not from any method.",
  );
  out.push("");
  out.push(
    "Baselines (bench/routing/baselines.mjs) are baselines, not the product: (a) distinct-token overlap and (b) BM25 " +
      "(k1=1.2, b=0.75), both over tool name + endpoint name + tool and endpoint descriptions; plus an extra BM25 over " +
      "all text SchemaRouter indexes (fields, aliases, semantic IDs, units, qualifiers as words). All use SchemaRouter's tokenizer; " +
      "baselines see structured requests flattened to text.",
  );
  out.push("");
  out.push(
    `Rejection settings: **default** = the product as shipped: \`${facts[0].defaultApi}\` with its default options, a rejection ` +
      "being an empty result (baselines: their top 5). **none** = ranking only (top 5 of the ranked surface). **a priori** = " +
      `SchemaRouter \`minCoverage: ${A_PRIORI.minCoverage}, minScore: ${A_PRIORI.minScore}\`, fixed before the first run ` +
      "(the same coverage rule for the baselines). **held-out** = each method's own score threshold chosen by one rule — " +
      "maximize ½·(supported top-1 correct) + ½·(unsupported rejected) on one fold — and applied to the other fold " +
      "(2-fold cross-fitting, folds stratified and seeded).",
  );
  out.push("");
  out.push(
    "Cells: median over seeds (min–max). R@k = required-tool recall (share of a request's needs answered in the top k). " +
      "Near-domain rejected = all four near-domain kinds together. Rejections explained = of the unsupported requests the " +
      "default setting rejects, the share whose rejection names what no endpoint covers (every named item occurring in the " +
      "request); n/a when the method gives no explanation.",
  );
  out.push("");
  out.push(
    table([
      [
        "Method",
        "Rejection",
        "R@1",
        "R@5",
        "text R@1",
        "text R@5",
        "structured R@1",
        "structured R@5",
        "Unsupported rejected",
        "Near-domain rejected",
        "Supported rejected",
        "Supported top-1 wrong",
        "Unsupported rejections explained",
      ],
      ...methods.flatMap((m) =>
        SETTINGS.map((s) => [
          short(m),
          s,
          spread(at(m, s, "supported").recall1, pct),
          spread(at(m, s, "supported").recall5, pct),
          med(at(m, s, "text"), "recall1"),
          med(at(m, s, "text"), "recall5"),
          med(at(m, s, "structured"), "recall1"),
          med(at(m, s, "structured"), "recall5"),
          spread(at(m, s, "unsupported").rejection, pct),
          med(at(m, s, "unsupported-near-all"), "rejection"),
          spread(at(m, s, "supported").overRejection, pct),
          med(at(m, s, "supported"), "falseRouteSupported"),
          med(at(m, s, "unsupported"), "explained"),
        ]),
      ),
    ]),
  );
  out.push("");
  out.push(
    "Unsupported requests rejected, by kind (median over seeds); text / structured = the near-domain kinds asked in free text / with semanticIds and units. " +
      "Two-need requests: R@1 is at most 50% unless one endpoint answers both needs.",
  );
  out.push("");
  out.push(
    table([
      [
        "Method",
        "Rejection",
        "near (fixed list)",
        "undeclared field",
        "unit not offered",
        "qualifier of another field",
        "out-of-domain",
        "near-domain, text",
        "near-domain, structured",
        "two-need R@5",
      ],
      ...methods.flatMap((m) =>
        SETTINGS.map((s) => [
          short(m),
          s,
          med(at(m, s, "unsupported-near"), "rejection"),
          med(at(m, s, "unsupported-field"), "rejection"),
          med(at(m, s, "unsupported-unit"), "rejection"),
          med(at(m, s, "unsupported-qualifier"), "rejection"),
          med(at(m, s, "unsupported-far"), "rejection"),
          med(at(m, s, "unsupported-near-all-text"), "rejection"),
          med(at(m, s, "unsupported-near-all-structured"), "rejection"),
          med(at(m, s, "multi"), "recall5"),
        ]),
      ),
    ]),
  );
  out.push("");
  const kinds = [
    ["near (fixed list)", "unsupported-near"],
    ["undeclared field", "unsupported-field"],
    ["unit not offered", "unsupported-unit"],
    ["qualifier of another field", "unsupported-qualifier"],
  ];
  const split = (m, s, form) =>
    `${med(at(m, s, `${form}-text`), "rejection")} / ${med(at(m, s, `${form}-structured`), "rejection")}`;
  out.push("Near-domain kinds rejected, free text / structured (median over seeds):");
  out.push("");
  out.push(
    table([
      ["Method", "Rejection", ...kinds.map(([label]) => label)],
      ...methods.flatMap((m) =>
        SETTINGS.map((s) => [short(m), s, ...kinds.map(([, form]) => split(m, s, form))]),
      ),
    ]),
  );
  out.push("");
  const get = (method, setting, metric) => at(method, setting, "supported")[metric].median;
  const ratios = methods
    .filter((m) => m !== "SchemaRouter")
    .map((m) => {
      const parts = ["default", "held-out"].map((s) => {
        const b = get(m, s, "recall1");
        if (!(b > 0)) return `${s} n/a (baseline 0%)`;
        const ratio = `${(get("SchemaRouter", s, "recall1") / b).toFixed(2)}×`;
        return `${s} ${ratio}${b < 0.1 ? " (baseline below 10%: not a meaningful ratio)" : ""}`;
      });
      return `vs ${short(m)}: ${parts.join(", ")}`;
    });
  out.push(`R@1 ratio SchemaRouter / baseline (medians): ${ratios.join("; ")}.`);
  out.push("");
  const thresholds = rows
    .filter((r) => r.setting === "held-out" && r.form === "all")
    .map((r) => `${short(r.method)} ${rangeOf(r.thresholds, (v) => v.toFixed(2))}`);
  out.push(
    `Held-out thresholds chosen (${2 * seeds.length} folds; median (min–max)): ${thresholds.join("; ")}.`,
  );
  return out.join("\n");
}

const RULES = ["description", "synonym", "morphology", "unit-words", "qualifier-words"];

export function paraphraseText(results) {
  const facts = results.filter((r) => r.bench === "routing-catalog");
  const rows = results.filter((r) => r.bench === "routing-paraphrase");
  const at = finder(rows, "routing-paraphrase");
  const methods = [...new Set(rows.map((r) => r.method))];
  const p = facts[0].paraphrase;
  const out = [];
  out.push("### Routing quality: paraphrase set");
  out.push("");
  out.push(
    `bench/routing/paraphrase.json, its ${facts[0].split} half: ${p.supported} supported requests that name a field only by ` +
      `description-level words, synonyms, morphology, or units and qualifiers in words, and ${p.unsupported} unsupported ones ` +
      "(an undeclared field of a domain, in words), on the same catalogs and seeds as above (a supported request whose unit or " +
      `qualifier a seed does not declare is left out of that seed: ${rangeOf(
        facts.map((f) => f.paraphrase.notApplicable),
        String,
      )} per seed). Held-out threshold: the one chosen on all of the seed's catalog requests.`,
  );
  out.push("");
  out.push(
    table([
      [
        "Method",
        "Rejection",
        "R@1",
        "R@5",
        ...RULES.map((rule) => `${rule} R@5`),
        "Supported rejected",
        "Unsupported rejected",
      ],
      ...methods.flatMap((m) =>
        SETTINGS.map((s) => [
          short(m),
          s,
          spread(at(m, s, "paraphrase-supported").recall1, pct),
          spread(at(m, s, "paraphrase-supported").recall5, pct),
          ...RULES.map((rule) => med(at(m, s, `paraphrase-${rule}`), "recall5")),
          med(at(m, s, "paraphrase-supported"), "overRejection"),
          med(at(m, s, "paraphrase-unsupported"), "rejection"),
        ]),
      ),
    ]),
  );
  return out.join("\n");
}

export function realText(results) {
  const facts = results.filter((r) => r.bench === "routing-real-catalog");
  const rows = results.filter((r) => r.bench === "routing-real");
  const misses = results.filter((r) => r.bench === "routing-real-misses");
  const methods = [...new Set(rows.map((r) => r.method))];
  const catalogs = [...facts.map((f) => f.catalog), "all"];
  const at = (method, catalog, form) =>
    rows.find((r) => r.method === method && r.catalog === catalog && r.form === form);
  const out = [];
  out.push("### Routing quality: real catalogs");
  out.push("");
  out.push(
    `Documents compiled with the real compiler into a temporary project: ${facts
      .map(
        (f) =>
          `${f.catalog} ${f.endpoints} endpoints (${f.effects.read} read, ${f.effects.write} write, ${f.effects.destructive} destructive)`,
      )
      .join(
        "; ",
      )}. Summary requests: one per operation of the split, from the operation's own summary by the fixed rewrite rule ` +
      `(${facts.map((f) => `${f.catalog} ${f.summaryRequests}`).join(", ")}); developer requests: typed by hand with their labelled operations ` +
      `(${facts.map((f) => `${f.catalog} ${f.developerRequests}`).join(", ")}). All settings are the product default (\`${facts[0].defaultApi}\`). ` +
      "Read-unsafe = of the read-intent requests whose labels include a read endpoint, the share with a write or destructive endpoint first (target 0). " +
      "Summary cells: median over rewrite seeds (min–max).",
  );
  out.push("");
  const cell = (row, metric) => (row === undefined ? "n/a" : spread(row[metric], pct));
  out.push(
    table([
      [
        "Method",
        "Catalog",
        "summary R@1",
        "summary R@5",
        "summary read-unsafe",
        "developer R@1",
        "developer R@5",
        "developer read-unsafe",
        "Rejected (summary / developer)",
      ],
      ...methods.flatMap((m) =>
        catalogs.map((c) => {
          const s = at(m, c, "summary");
          const d = at(m, c, "developer");
          return [
            short(m),
            c,
            cell(s, "recall1"),
            cell(s, "recall5"),
            `${cell(s, "readUnsafe")} of ${s?.safetyCases.median ?? 0}`,
            cell(d, "recall1"),
            cell(d, "recall5"),
            `${cell(d, "readUnsafe")} of ${d?.safetyCases.median ?? 0}`,
            `${cell(s, "rejected")} / ${cell(d, "rejected")}`,
          ];
        }),
      ),
    ]),
  );
  out.push("");
  out.push(
    "Developer requests by set (all catalogs pooled): original (first session) and new (written before this tuning).",
  );
  out.push("");
  out.push(
    table([
      ["Method", "Set", "Requests", "R@1", "R@5", "read-unsafe", "Rejected"],
      ...methods.flatMap((m) =>
        ["original", "new"].map((set) => {
          const d = at(m, "all", `developer:${set}`);
          return [
            short(m),
            set,
            `${d?.cases.median ?? 0}`,
            cell(d, "recall1"),
            cell(d, "recall5"),
            `${cell(d, "readUnsafe")} of ${d?.safetyCases.median ?? 0}`,
            cell(d, "rejected"),
          ];
        }),
      ),
    ]),
  );
  if (misses.length > 0) {
    out.push("");
    out.push(
      "SchemaRouter's developer-request misses (labelled operation not in the top 5) and read-unsafe first candidates:",
    );
    out.push("");
    out.push(
      table([
        ["Request", "Catalog", "First candidate", "In top 5", "Read-unsafe"],
        ...misses.map((m) => [
          `\`${m.query}\``,
          m.catalog,
          m.top ?? "(none)",
          m.inTop5 ? "yes" : "no",
          m.unsafe ? "yes" : "",
        ]),
      ]),
    );
  }
  return out.join("\n");
}

export function latencyText(rows) {
  const latency = rows.filter((r) => r.bench === "routing-latency");
  const index = rows.filter((r) => r.bench === "routing-index");
  const ms = (s) => spread(s, (v) => num(v));
  const out = [];
  out.push("### Retrieval and planning latency at scale");
  out.push("");
  out.push(
    "Per-request wall time in ms: p50 and p99 over the catalog's fixed request set within one pass, median over passes (min–max); " +
      "index and exhaustive mode interleaved per request. retrieve = `retrieve(request)` (k = 5, typed candidates with effective schemas); " +
      "plan = `plan(retriever, request)` (depth 25). Parity: every request compared in index vs exhaustive mode — top-5 candidates " +
      "(JSON-identical), the full ranked surface (routes and scores) and the ExecutionPlan (JSON-identical); mismatches must be 0.",
  );
  out.push("");
  out.push(
    table([
      [
        "Catalog",
        "Endpoints",
        "Requests × passes",
        "Op",
        "p50 index",
        "p50 exhaustive",
        "p99 index",
        "p99 exhaustive",
        "p50 index/exhaustive",
        "Parity mismatches",
      ],
      ...latency.map((r) => [
        r.catalog,
        r.endpoints,
        `${r.requests} × ${r.runs}`,
        r.op,
        ms(r.p50Index),
        ms(r.p50Exhaustive),
        ms(r.p99Index),
        ms(r.p99Exhaustive),
        `${r.p50Ratio.toFixed(2)}×`,
        r.parityMismatches,
      ]),
    ]),
  );
  out.push("");
  out.push(
    "Index build = first `stats()` of a new retriever (tokenized surface + inverted index), median (min–max) over builds; " +
      "memory = growth of JS heap + external memory (typed arrays) after forced GC, in one fresh process per catalog. " +
      "GitHub's registry build includes resolving and compiling the 13 MB OpenAPI document.",
  );
  out.push("");
  out.push(
    table([
      [
        "Catalog",
        "Endpoints",
        "Registry build (ms)",
        "Index build (ms)",
        "Exhaustive surface build (ms)",
        "Vocabulary",
        "Postings",
        "Registry MB",
        "Index MB",
        "RSS after index (MB)",
        "Peak RSS (MB, incl. garbage)",
        "Median ranked surface",
        "Parity (retrieve/surface/plan)",
      ],
      ...index.map((r) => [
        r.catalog,
        r.endpoints,
        num(r.registryMs, 0),
        ms(r.indexBuildMs),
        ms(r.exhaustiveBuildMs),
        r.vocabulary,
        r.postings,
        num(r.memory.registryMb, 1),
        num(r.memory.indexMb, 1),
        num(r.memory.rssAfterIndexMb, 0),
        num(r.memory.peakRssMb, 0),
        r.surfaceMedian,
        `${r.parity.retrieve}/${r.parity.surface}/${r.parity.plan} of ${r.parity.requests}`,
      ]),
    ]),
  );
  return out.join("\n");
}
