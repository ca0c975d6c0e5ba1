/**
 * Hostile OPTIMADE providers (OPTIMADE v1.2 "API Endpoints", "Responses"; docs/sources/optimade.md):
 * lying lengths, floods, redirects, bad JSON, documents that are not JSON:API, pagination loops and
 * links off the bound listing, pages past the local limits, slow and reset bodies, validation bombs,
 * lies in `meta`, error documents, and hostile /versions and /info answers at compile time. Every
 * case ends in a typed refusal, a bounded success or a compile whose report names the construct;
 * the canary (a trusted Authorization header) reaches no other origin, error or run event.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { optimadeAdapter } from "../../compiler/sources/optimade/index.js";
import type { SourceResult } from "../../compiler/sources/types.js";
import { type RegisteredTool, Registry, registerTool } from "../../runtime/load/registry.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import type { OptimadeLimits } from "../../runtime/transports/optimade/transport.js";
import {
  type HostileProvider,
  startHostileProvider,
} from "../fixtures/hostile/hostile-optimade-provider.mjs";
import {
  assertNoSecret,
  filesUnder,
  HostileTally,
  MemoryTraceStore,
  outcomeOf,
} from "../fixtures/hostile/outcomes.js";
import { REPO_ROOT, tempProject } from "../helpers/project.js";

const run = promisify(execFile);
const CANARY = "CANARY-optimade-3c9e71b0";
const LIMITS: OptimadeLimits = { maxBytes: 64 * 1024, maxPages: 3, maxRecords: 20, timeoutMs: 500 };
const tally = new HostileTally("optimade-providers");
const context = { cwd: REPO_ROOT, env: { CANARY_TOKEN: CANARY }, allowInsecureHttp: false };
let provider: HostileProvider;
let compiled: SourceResult;
let registered: RegisteredTool;

beforeAll(async () => {
  provider = await startHostileProvider();
  compiled = await optimadeAdapter.resolve(
    "hostile",
    { kind: "optimade", location: `${provider.origin}/v1` },
    context,
  );
  registered = registerTool({
    tool: compiled.tools[0]!,
    source: "hostile",
    sourceKind: "optimade",
    defs: compiled.defs,
  });
});
afterAll(async () => {
  console.log(tally.line());
  await provider.close();
});

interface CallOptions {
  readonly endpoint?: string;
  readonly args?: Record<string, unknown>;
  readonly limits?: Partial<OptimadeLimits>;
  readonly includePayloads?: boolean;
}

/** One call through a fresh router (fresh availability memory) while the provider answers in `mode`. */
async function callWith(mode: string, options: CallOptions = {}) {
  const endpoint = options.endpoint ?? "list_structures";
  const optimade = { headers: { authorization: `Bearer ${CANARY}` }, ...LIMITS, ...options.limits };
  const router = SchemaRouter.fromRegistry(new Registry([registered]), {
    bindings: { hostile: { optimade } },
  });
  const store = new MemoryTraceStore();
  const call = {
    tool: "hostile",
    endpoint,
    arguments: options.args ?? {},
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  };
  provider.mode = mode;
  provider.requests.length = 0;
  provider.elsewhere.length = 0;
  try {
    const includePayloads = options.includePayloads ?? true;
    const outcome = await outcomeOf(() => router.call(call, { traceStore: store, includePayloads }), 5_000);
    assertNoSecret(CANARY, store.events);
    expect(provider.elsewhere).toEqual([]);
    return { outcome, requests: [...provider.requests] };
  } finally {
    provider.mode = "ok";
    await router.close();
  }
}

describe("calling a hostile provider", () => {
  it.each<[string, string]>([
    ["length-smaller-than-body", "RESPONSE_NOT_JSON"],
    ["length-larger-then-close", "INVOCATION_UNAVAILABLE"],
    ["length-larger-then-stall", "INVOCATION_UNAVAILABLE"],
    ["length-over-max-bytes", "RESPONSE_TOO_LARGE"],
    ["length-not-a-number", "INVOCATION_UNAVAILABLE"],
    ["length-twice-differing", "INVOCATION_UNAVAILABLE"],
    ["chunked-flood", "RESPONSE_TOO_LARGE"],
    ["pages-past-max-bytes", "RESPONSE_TOO_LARGE"],
    ["huge-headers", "INVOCATION_UNAVAILABLE"],
    ["redirect-same-origin", "TRANSPORT_REFUSED"],
    ["redirect-off-origin", "TRANSPORT_REFUSED"],
    ["bad-json", "RESPONSE_NOT_JSON"],
    ["empty-body", "RESPONSE_NOT_JSON"],
    ["no-content", "RESPONSE_NOT_JSON"],
    ["html", "RESPONSE_NOT_JSON"],
    ["gzip-bomb-unasked", "RESPONSE_NOT_JSON"],
    ["byte-order-mark", "RESPONSE_NOT_JSON"],
    ["binary", "RESPONSE_NOT_JSON"],
    ["top-level-array", "OUTPUT_SCHEMA_VIOLATION"],
    ["data-not-a-list", "OUTPUT_SCHEMA_VIOLATION"],
    ["entry-without-id", "OUTPUT_SCHEMA_VIOLATION"],
    ["entry-of-another-type", "OUTPUT_SCHEMA_VIOLATION"],
    ["attributes-not-an-object", "OUTPUT_SCHEMA_VIOLATION"],
    ["meta-missing", "OUTPUT_SCHEMA_VIOLATION"],
    ["links-a-string", "OUTPUT_SCHEMA_VIOLATION"],
    ["next-a-number", "OUTPUT_SCHEMA_VIOLATION"],
    ["errors-on-success", "OUTPUT_SCHEMA_VIOLATION"],
    ["attribute-wrong-type", "OUTPUT_SCHEMA_VIOLATION"],
    ["attribute-non-finite", "OUTPUT_SCHEMA_VIOLATION"],
    ["meta-negative-count", "OUTPUT_SCHEMA_VIOLATION"],
    ["meta-count-a-string", "OUTPUT_SCHEMA_VIOLATION"],
    ["next-self-loop", "TRANSPORT_REFUSED"],
    ["next-off-origin", "TRANSPORT_REFUSED"],
    ["next-other-endpoint", "TRANSPORT_REFUSED"],
    ["next-with-userinfo", "TRANSPORT_REFUSED"],
    ["next-invalid-url", "TRANSPORT_REFUSED"],
    ["next-javascript", "TRANSPORT_REFUSED"],
    ["error-huge-detail", "HTTP_STATUS"],
    ["error-over-64-kb", "OPTIMADE_BAD_REQUEST"],
    ["error-malformed", "OPTIMADE_BAD_REQUEST"],
    ["error-553", "OPTIMADE_VERSION_NOT_SUPPORTED"],
    ["error-429-forever", "HTTP_STATUS"],
    ["never-answer", "INVOCATION_UNAVAILABLE"],
    ["slow-drip", "INVOCATION_UNAVAILABLE"],
    ["reset-mid-body", "INVOCATION_UNAVAILABLE"],
  ])("%s is refused with %s", async (mode, code) => {
    const { outcome } = await callWith(mode);
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    // Provider text is quoted, not pasted: a 60 KB `detail` stays in details, not in the message.
    if (outcome.kind === "refused") expect(outcome.error.message.length).toBeLessThan(2_000);
    assertNoSecret(CANARY, outcome);
  });
});

describe("bounded successes", () => {
  it.each<[string, Partial<OptimadeLimits>, number]>([
    ["next-endless", {}, LIMITS.maxPages],
    ["next-two-page-loop", {}, LIMITS.maxPages],
    ["page-past-max-records", {}, 1],
    ["meta-lies-data-returned", {}, 1],
    ["prototype-keys", {}, 1],
    ["huge-array", { maxBytes: 1024 * 1024 }, 1],
  ])("%s ends within the local limits", async (mode, limits, pages) => {
    const { outcome, requests } = await callWith(mode, { limits });
    tally.record(outcome);
    expect(outcome.kind).toBe("ok");
    expect(requests).toHaveLength(pages);
    if (outcome.kind !== "ok") return;
    const data = outcome.value.data as { data: unknown[]; meta: Record<string, unknown> };
    expect(data.data.length).toBeLessThanOrEqual(LIMITS.maxRecords);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("deep-nesting: a record nested 100,000 levels deep is refused, not copied or projected", async () => {
    const { outcome } = await callWith("deep-nesting", { limits: { maxBytes: 1024 * 1024 } });
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it("cuts a page past maxRecords and says more data is available", async () => {
    const { outcome } = await callWith("page-past-max-records");
    tally.record(outcome);
    const data =
      outcome.kind === "ok"
        ? (outcome.value.data as { data: unknown[]; meta: object; links?: object })
        : undefined;
    expect(data?.data).toHaveLength(LIMITS.maxRecords);
    expect(data?.meta).toMatchObject({ more_data_available: true });
    expect((data?.links as { next?: unknown } | undefined)?.next).toBeUndefined();
  });
});

describe("single entries and echoed credentials", () => {
  it("a list where one entry belongs is refused with OUTPUT_SCHEMA_VIOLATION", async () => {
    const { outcome } = await callWith("single-entry-a-list", {
      endpoint: "get_structures",
      args: { id: "s1" },
    });
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it("a provider that echoes the Authorization header: run events and traces carry none of it", async () => {
    const { outcome } = await callWith("error-echoes-authorization", { includePayloads: false });
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("HTTP_STATUS");
  });

  it("sends the trusted header to the bound provider only", async () => {
    const { outcome, requests } = await callWith("redirect-off-origin");
    tally.record(outcome);
    expect(requests.map((request) => request.authorization)).toEqual([`Bearer ${CANARY}`]);
  });
});

/** Compiles the provider while it answers discovery in `compileMode`. */
async function compileWith(compileMode: string, versioned = true) {
  provider.compileMode = compileMode;
  provider.requests.length = 0;
  provider.elsewhere.length = 0;
  const location = versioned ? `${provider.origin}/v1` : provider.origin;
  try {
    const outcome = await outcomeOf(
      () => optimadeAdapter.resolve("hostile", { kind: "optimade", location }, context),
      10_000,
    );
    assertNoSecret(CANARY, outcome);
    expect(provider.elsewhere).toEqual([]);
    return { outcome, requests: provider.requests.length };
  } finally {
    provider.compileMode = "ok";
  }
}

describe("compiling a hostile provider", () => {
  it.each<[string, string, boolean?]>([
    ["info-not-json", "SOURCE_PARSE_FAILED"],
    ["info-array", "SOURCE_INVALID"],
    ["info-no-attributes", "SOURCE_INVALID"],
    ["info-entry-types-not-list", "SOURCE_INVALID"],
    ["info-entry-types-numbers", "SOURCE_INVALID"],
    ["info-api-v2", "SOURCE_INVALID"],
    ["info-redirect-off-origin", "SOURCE_REDIRECT_REFUSED"],
    ["info-redirect-loop", "SOURCE_FETCH_FAILED"],
    ["info-redirect-no-location", "SOURCE_FETCH_FAILED"],
    ["info-length-over-limit", "SOURCE_TOO_LARGE"],
    ["info-length-smaller", "SOURCE_PARSE_FAILED"],
    ["info-500", "SOURCE_FETCH_FAILED"],
    ["versions-no-v1", "SOURCE_INVALID", false],
    ["versions-html", "SOURCE_INVALID", false],
    ["versions-huge", "SOURCE_INVALID", false],
    ["probe-not-json", "SOURCE_PARSE_FAILED"],
  ])("%s is refused with %s", async (mode, code, versioned = true) => {
    const { outcome } = await compileWith(mode, versioned);
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
  });

  it.each<[string, string]>([
    ["entry-properties-array", "entry-info"],
    ["entry-prototype-properties", "property-name"],
    ["entry-types-odd", "entry-type-name"],
    ["entry-no-json-format", "response-format"],
    ["property-wrong-types", "property-definition"],
  ])("%s compiles with %s reported", async (mode, construct) => {
    const { outcome } = await compileWith(mode);
    const reported =
      outcome.kind === "ok" && outcome.value.compatibility.some((issue) => issue.construct === construct);
    tally.record(outcome, { reported });
    expect(reported).toBe(true);
  });

  // Accepted as data: remote text is stored as received (bounded only by the fetch's byte limit).
  it.each<[string, number]>([
    ["provider-huge", 5],
    ["property-huge-description", 5],
  ])("%s compiles in %i requests", async (mode, requests) => {
    const { outcome, requests: made } = await compileWith(mode);
    tally.record(outcome, { reported: false });
    expect(outcome.kind).toBe("ok");
    expect(made).toBe(requests);
  });

  it("200 entry types cost four requests each: discovery is bounded by the provider only", async () => {
    const { outcome, requests } = await compileWith("many-entry-types");
    tally.record(outcome, { reported: false });
    expect(outcome.kind === "ok" && outcome.value.tools[0]?.endpoints).toHaveLength(400);
    expect(requests).toBe(1 + 200 * 4);
  });

  it("entry types named __proto__ and constructor compile, lock without the canary, and load", async () => {
    const project = tempProject("hostile-optimade");
    project.write({ sources: { hostile: { kind: "optimade", location: `${provider.origin}/v1` } } });
    provider.compileMode = "entry-type-proto";
    const outcome = await outcomeOf(() => compile({ config: project.configPath, env: context.env }), 10_000);
    provider.compileMode = "ok";
    tally.record(outcome, { reported: false });
    expect(outcome.kind).toBe("ok");
    assertNoSecret(CANARY, filesUnder(project.dir));
    const router = await SchemaRouter.load({ root: project.dir, verify: "full" });
    expect([...router.registry.get("hostile")!.endpoints.keys()].sort()).toEqual([
      "get___proto__",
      "get_constructor",
      "list___proto__",
      "list_constructor",
    ]);
    await router.close();
  });
});

/**
 * Bugs this suite found, now fixed: each case asserts the behaviour they should have.
 */
describe("known bugs in compiling a hostile provider", () => {
  it("fixed: a probe page whose links.next is not a URL crashes the compile with a TypeError", async () => {
    await compileWith("probe-next-invalid");
  });

  it("fixed: a 3,000-level property definition crashes the compile with a RangeError", async () => {
    await compileWith("property-deep");
  });
});

describe("a process that only runs the transport", () => {
  it("outlives abandoned bodies and enforces timeoutMs while the garbage collector runs", async () => {
    const modes = [
      "length-larger-then-stall",
      "slow-drip",
      "never-answer",
      "length-over-max-bytes",
      "chunked-flood",
      "reset-mid-body",
      "redirect-off-origin",
    ];
    const child = join(REPO_ROOT, "test/fixtures/hostile/optimade-child.mjs");
    const args = ["--expose-gc", child, join(REPO_ROOT, "runtime/dist"), "300", ...modes];
    const { stdout } = await run(process.execPath, args, { timeout: 20_000 });
    const { results, alive } = JSON.parse(stdout) as { results: [string, string, number][]; alive: boolean };
    expect(alive).toBe(true);
    expect(results.map(([mode, code]) => [mode, code])).toEqual([
      ["length-larger-then-stall", "INVOCATION_UNAVAILABLE"],
      ["slow-drip", "INVOCATION_UNAVAILABLE"],
      ["never-answer", "INVOCATION_UNAVAILABLE"],
      ["length-over-max-bytes", "RESPONSE_TOO_LARGE"],
      ["chunked-flood", "RESPONSE_TOO_LARGE"],
      ["reset-mid-body", "INVOCATION_UNAVAILABLE"],
      ["redirect-off-origin", "TRANSPORT_REFUSED"],
    ]);
    for (const [mode, , ms] of results) expect([mode, ms < 1_500]).toEqual([mode, true]);
    for (const [, code] of results) tally.refusedWith(code);
  });
});
