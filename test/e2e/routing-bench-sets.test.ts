/**
 * The labelled sets of the routing benchmarks (docs/routing-benchmarks.md) follow their fixed rules:
 * labels come from the declared contracts, the tuning and report splits are disjoint, the paraphrase
 * requests never name their field, and the developer requests label operations that exist in the
 * compiled real catalogs. The benchmark modules import the built runtime (runtime/dist), as the
 * benchmarks do; run `npm run build` first.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/project.js";

// biome-ignore lint/suspicious/noExplicitAny: the benchmark modules are untyped .mjs files.
type Module = any;
const load = (path: string): Promise<Module> => import(pathToFileURL(join(REPO_ROOT, path)).href);

interface Field {
  semanticId?: string;
  unit?: string;
  qualifiers?: Record<string, string>;
}
interface Tool {
  name: string;
  endpoints: { name: string; fields: Field[] }[];
}

/** Routes declaring `key` (and `unit`, and every qualifier), computed here independently of the bench. */
function declaring(tools: Tool[], need: { key: string; unit?: string; qualifiers?: Record<string, string> }) {
  return tools.flatMap((t) =>
    t.endpoints
      .filter((ep) =>
        ep.fields.some(
          (f) =>
            f.semanticId === need.key &&
            (need.unit === undefined || f.unit === need.unit) &&
            Object.entries(need.qualifiers ?? {}).every(([k, v]) => f.qualifiers?.[k] === v),
        ),
      )
      .map((ep) => `${t.name}.${ep.name}`),
  );
}

let concepts: Module;
let ambiguous: Module;
let paraphrase: Module;
let intent: Module;
let requests: Module;
let real: Module;
let metrics: Module;
let realQuality: Module;

beforeAll(async () => {
  [concepts, ambiguous, paraphrase, intent, requests, real, metrics, realQuality] = await Promise.all([
    load("bench/routing/concepts.mjs"),
    load("bench/routing/ambiguous.mjs"),
    load("bench/routing/paraphrase.mjs"),
    load("bench/routing/real/intent.mjs"),
    load("bench/routing/real/requests.mjs"),
    load("bench/routing/real/catalogs.mjs"),
    load("bench/routing/metrics.mjs"),
    load("bench/routing/real/quality.mjs"),
  ]);
});

describe("high-ambiguity catalog sets", () => {
  it("keeps the tuning and report seeds disjoint", () => {
    const report = new Set(concepts.REPORT_SEEDS);
    expect(concepts.TUNING_SEEDS.filter((s: number) => report.has(s))).toEqual([]);
    expect(concepts.REPORT_SEEDS.length).toBeGreaterThanOrEqual(3);
  });

  it("generates at least 10 near-domain unsupported requests per kind that no endpoint answers", () => {
    for (const seed of [concepts.TUNING_SEEDS[0], concepts.REPORT_SEEDS[0]]) {
      const catalog = ambiguous.ambiguousCatalog({ seed });
      const split = concepts.REPORT_SEEDS.includes(seed) ? "report" : "tuning";
      for (const kind of ["unsupported-field", "unsupported-unit", "unsupported-qualifier"]) {
        const cases = catalog.cases.filter((c: { form: string }) => c.form === kind);
        expect(cases.length, `${kind}, seed ${seed}`).toBeGreaterThanOrEqual(10);
        expect(cases.some((c: { request: object }) => "semanticIds" in c.request)).toBe(true);
        expect(cases.some((c: { request: object }) => !("semanticIds" in c.request))).toBe(true);
      }
      for (const c of catalog.cases.filter((x: { form: string }) => x.form === "unsupported-field")) {
        const undeclared = concepts.UNDECLARED.find((u: { key: string }) => u.key === c.concept);
        expect(undeclared.split).toBe(split);
        expect(declaring(catalog.tools, { key: c.concept })).toEqual([]);
      }
      for (const c of catalog.cases.filter((x: { form: string }) => x.form === "unsupported-unit")) {
        // The unit is stated: in the query text, or as a typed unit of a structured request.
        expect(c.request.units?.[0] ?? /\bin (\S+)/.exec(c.request.query)?.[1]).toBe(c.unit);
        expect(declaring(catalog.tools, { key: c.concept })).not.toEqual([]);
        expect(declaring(catalog.tools, { key: c.concept, unit: c.unit })).toEqual([]);
      }
      for (const c of catalog.cases.filter((x: { form: string }) => x.form === "unsupported-qualifier")) {
        const entries = Object.entries(c.qualifiers as Record<string, string>);
        expect(entries.length).toBe(1);
        const [key, value] = entries[0]!;
        // The qualifier is declared in this catalog, on another concept only.
        const others = catalog.tools.flatMap((t: Tool) =>
          t.endpoints.flatMap((ep) =>
            ep.fields.filter((f) => f.semanticId !== c.concept && f.qualifiers?.[key] === value),
          ),
        );
        expect(others.length).toBeGreaterThan(0);
        expect(declaring(catalog.tools, { key: c.concept })).not.toEqual([]);
        expect(declaring(catalog.tools, { key: c.concept, qualifiers: c.qualifiers })).toEqual([]);
      }
    }
  });

  it("labels supported requests with every endpoint that declares the need, and nothing else", () => {
    const catalog = ambiguous.ambiguousCatalog({ seed: concepts.REPORT_SEEDS[1] });
    for (const c of catalog.cases.filter((x: { supported: boolean }) => x.supported)) {
      c.needs.forEach((need: { key: string }, i: number) => {
        expect(c.required[i]).toEqual(declaring(catalog.tools, need));
        expect(c.required[i].length).toBeGreaterThan(0);
      });
    }
  });
});

describe("rejection explanations", () => {
  it("count a rejection as explained only when it names what the request asked for", () => {
    const request = { query: "wind speed in mph" };
    const named = (concept: string) => ({
      rejected: true,
      routes: [],
      uncovered: [{ concept, kind: "unit" }],
    });
    expect(metrics.explained(request, named("mph"))).toBe(true);
    expect(metrics.explained(request, named("salinity"))).toBe(false);
    expect(metrics.explained(request, { rejected: true, routes: [], uncovered: [] })).toBe(false);
    expect(metrics.explained(request, { rejected: false, routes: ["t.e"], uncovered: [] })).toBeUndefined();
    expect(metrics.explained(request, { rejected: true, routes: [], uncovered: null })).toBeUndefined();
    const outcome = metrics.outcome({ supported: false, request }, [], named("mph"));
    expect(metrics.aggregate([outcome]).explained).toBe(1);
  });
});

describe("paraphrase set", () => {
  it("holds at least 150 supported requests, none naming its field, split into tuning and report", () => {
    const { requests: list } = paraphrase.paraphraseSet();
    const supported = list.filter((r: { supported: boolean }) => r.supported);
    expect(supported.length).toBeGreaterThanOrEqual(150);
    for (const split of ["tuning", "report"]) {
      for (const isSupported of [true, false]) {
        expect(
          list.filter(
            (r: { split: string; supported: boolean }) => r.split === split && r.supported === isSupported,
          ).length,
        ).toBeGreaterThan(10);
      }
    }
    expect(new Set(list.map((r: { rule: string }) => r.rule))).toEqual(
      new Set(["description", "synonym", "morphology", "unit-words", "qualifier-words"]),
    );
  });

  it("labels each request from the seed's declared fields", () => {
    const catalog = ambiguous.ambiguousCatalog({ seed: concepts.REPORT_SEEDS[0] });
    const { cases } = paraphrase.paraphraseCases(catalog.tools, { split: "report" });
    expect(cases.length).toBeGreaterThan(60);
    for (const c of cases) {
      if (c.supported) expect(c.required).toEqual([declaring(catalog.tools, c.needs[0])]);
      else expect(c.required).toEqual([]);
      expect(Object.keys(c.request)).toEqual(["query"]);
    }
  });
});

describe("real-catalog sets", () => {
  it("reads the intent of a request from its first verb", () => {
    const cases: [string, string][] = [
      ["get a repository", "read"],
      ["star count of a repository", "read"],
      ["star a repository", "write"],
      ["how do i delete a repository", "write"],
      ["i need to list workflow runs", "read"],
      ["latest block", "read"],
      ["Updates a check run", "write"],
      ["Block transactions", "read"],
      ["block a user", "write"],
      ["bulk add team members", "write"],
      ["log in with email and password", "write"],
      ["who am I", "read"],
    ];
    expect(cases.map(([q]) => [q, intent.intentOf(q)])).toEqual(cases);
  });

  it("counts a write first for a read request as read-unsafe, unless only writes answer it", () => {
    const effects = new Map([
      ["x.get", "read"],
      ["x.star", "write"],
      ["x.login", "write"],
    ]);
    const read = { id: "r", request: { query: "star count of a repository" }, labels: ["x.get"] };
    expect(realQuality.outcome(read, ["x.star", "x.get"], effects)).toMatchObject({
      safetyCase: true,
      unsafe: true,
      hit1: false,
      hit5: true,
    });
    expect(realQuality.outcome(read, ["x.get"], effects)).toMatchObject({ unsafe: false, hit1: true });
    const onlyWrites = {
      id: "w",
      request: { query: "retrieve a temporary access token" },
      labels: ["x.login"],
    };
    expect(realQuality.outcome(onlyWrites, ["x.login"], effects)).toMatchObject({
      safetyCase: false,
      unsafe: false,
    });
    const write = { id: "s", request: { query: "star a repository" }, labels: ["x.star"] };
    expect(realQuality.outcome(write, ["x.star"], effects)).toMatchObject({
      safetyCase: false,
      unsafe: false,
    });
  });

  it("rewrites summaries by the fixed rule and labels operations sharing a summary", () => {
    expect(requests.normalizeSummary("[Deprecated] Get projects in a team.")).toBe("Get projects in a team");
    const catalog = {
      name: "x",
      endpoints: [
        { route: "x.a", summary: "Lists the branches" },
        { route: "x.b", summary: "lists the  branches." },
        { route: "x.c", summary: "Get a file" },
      ],
    };
    const cases = requests.generatedCases(catalog, 1);
    expect(cases.map((c: { labels: string[] }) => c.labels)).toEqual([
      ["x.a", "x.b"],
      ["x.a", "x.b"],
      ["x.c"],
    ]);
    const queries = new Set<string>();
    for (let seed = 0; seed < 40; seed++)
      queries.add(requests.rewrite("Lists the branches", "x.a", seed).query);
    expect([...queries].sort()).toEqual(
      [
        "how do i lists the branches",
        "i need to lists the branches",
        "list branches",
        "lists the branches",
      ].sort(),
    );
    expect(requests.generatedCases(catalog, 2).map((c: { split: string }) => c.split)).toEqual(
      cases.map((c: { split: string }) => c.split),
    );
  });

  it("compiles the real catalogs: at least 300 summary requests in the report split, and developer labels that exist", async () => {
    let report = 0;
    let developer = 0;
    for (const { name } of real.REAL_CATALOGS) {
      const catalog = await real.realCatalog(name);
      const routes = new Set(catalog.endpoints.map((e: { route: string }) => e.route));
      expect(catalog.endpoints.length).toBeGreaterThan(50);
      report += requests.generatedCases(catalog, requests.REAL_REPORT_SEEDS[0], { split: "report" }).length;
      for (const c of requests.developerCases(name)) {
        developer++;
        expect(
          c.labels.filter((route: string) => !routes.has(route)),
          c.id,
        ).toEqual([]);
      }
    }
    expect(report).toBeGreaterThanOrEqual(300);
    expect(developer).toBeGreaterThanOrEqual(40);
  }, 180_000);

  it("keeps the developer requests' alternating split and their two sets (original, new)", () => {
    const all = real.REAL_CATALOGS.flatMap(({ name }: { name: string }) => requests.developerCases(name));
    const byNumber = [...all].sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4)));
    byNumber.forEach((c, i) => {
      expect(c.id, c.id).toBe(`dev-${String(i + 1).padStart(2, "0")}`);
      expect(c.split, c.id).toBe(i % 2 === 0 ? "tuning" : "report");
      expect(c.set, c.id).toBe(i < 58 ? "original" : "new");
    });
    expect(byNumber.filter((c) => c.set === "new").length).toBeGreaterThanOrEqual(120);
    expect(byNumber.filter((c) => c.split === "report").length).toBeGreaterThanOrEqual(100);
  });
});
