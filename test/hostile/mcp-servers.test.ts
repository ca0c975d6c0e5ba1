/**
 * Hostile MCP servers (docs/sources/mcp.md; MCP spec, Server features § Tools): a raw JSON-RPC stdio
 * server that lies, floods, loops, crashes and stalls, compiled by the MCP source adapter and called
 * through the router. Every case ends in a typed refusal or a bounded success, never a crash or a
 * hang, and the canary secret (the server's allowlisted environment) appears in no error, artifact,
 * lockfile or run event. Streamable HTTP servers are in mcp-http-servers.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import type { McpSourceConfig } from "../../compiler/config/mcp-source.js";
import { buildMcpSource, mcpAdapter } from "../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../compiler/sources/types.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import type { ListedTool } from "../../runtime/transports/mcp/list.js";
import { BASE_TOOLS, HOSTILE_DEFINITIONS } from "../fixtures/hostile/hostile-mcp-tools.mjs";
import {
  assertNoSecret,
  filesUnder,
  HostileTally,
  MemoryTraceStore,
  outcomeOf,
} from "../fixtures/hostile/outcomes.js";
import { REPO_ROOT, type TempProject, tempProject } from "../helpers/project.js";

const SERVER = join(REPO_ROOT, "test/fixtures/hostile/hostile-mcp-server.mjs");
const CANARY = "CANARY-mcp-5e1f0c7d";
const tally = new HostileTally("mcp-servers");
afterAll(() => console.log(tally.line()));

const context = { cwd: REPO_ROOT, env: { CANARY_TOKEN: CANARY }, allowInsecureHttp: false };
const stdioSource = (mode: string, extra: Partial<McpSourceConfig> = {}): McpSourceConfig => ({
  kind: "mcp",
  stdio: { command: process.execPath, args: [SERVER, mode], env: ["CANARY_TOKEN"] },
  ...extra,
});

/** Compiled with a report: some compatibility issue or note names `construct`. */
function reports(result: SourceResult, construct: string): boolean {
  return (
    result.compatibility.some((issue) => issue.construct === construct) ||
    (result.notes ?? []).some((note) => note.includes(construct))
  );
}

describe("compiling a hostile server over stdio", () => {
  it.each<[string, string]>([
    ["init-crash", "MCP_CONNECT_FAILED"],
    ["init-garbage-exit", "MCP_CONNECT_FAILED"],
    ["init-error", "MCP_CONNECT_FAILED"],
    ["init-bad-version", "MCP_CONNECT_FAILED"],
    ["init-no-capabilities", "MCP_CONNECT_FAILED"],
    ["list-crash", "MCP_LIST_FAILED"],
    ["list-crash-page-2", "MCP_LIST_FAILED"],
    ["list-cursor-repeats", "MCP_LIST_FAILED"],
    ["list-cursor-endless", "MCP_LIST_FAILED"],
    ["list-cursor-huge", "MCP_LIST_FAILED"],
    ["list-cursor-number", "MCP_LIST_FAILED"],
    ["list-tools-not-array", "MCP_LIST_FAILED"],
    ["list-tools-missing", "MCP_LIST_FAILED"],
    ["list-nameless-tool", "MCP_LIST_FAILED"],
    ["list-numeric-name", "MCP_LIST_FAILED"],
    ["list-item-not-object", "MCP_LIST_FAILED"],
    ["list-duplicate-across-pages", "MCP_LIST_FAILED"],
    ["list-oversized", "MCP_LIST_FAILED"],
  ])("%s is refused with %s", async (mode, code) => {
    const outcome = await outcomeOf(() => mcpAdapter.resolve("hostile", stdioSource(mode), context), 10_000);
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    if (outcome.kind === "refused") expect(outcome.error.message.length).toBeLessThan(20_000);
    assertNoSecret(CANARY, outcome);
  });

  it.each<[string, number]>([
    ["list-thousands", 3000],
    ["stdout-garbage", 3],
    ["init-huge-instructions", 3],
  ])("%s compiles within bounds (%i endpoints)", async (mode, endpoints) => {
    const outcome = await outcomeOf(() => mcpAdapter.resolve("hostile", stdioSource(mode), context), 10_000);
    tally.record(outcome, { reported: false });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind === "ok") expect(outcome.value.tools[0]?.endpoints).toHaveLength(endpoints);
    assertNoSecret(CANARY, outcome);
  });
});

const facts = {
  execution: { transport: "mcp", server: "stdio", identity: "hostile" },
  server: { name: "hostile", version: "6.6.6" },
} as const;
const build = (tools: readonly object[], config: Partial<McpSourceConfig> = {}) =>
  Promise.resolve().then(() =>
    buildMcpSource(
      "hostile",
      { kind: "mcp", stdio: { command: "x" }, ...config },
      tools as ListedTool[],
      facts,
    ),
  );

describe("hostile definitions, compiled (buildMcpSource)", () => {
  it.each<[keyof typeof HOSTILE_DEFINITIONS, string]>([["duplicate names", "MCP_LIST_FAILED"]])(
    "%s is refused with %s",
    async (name, code) => {
      const outcome = await outcomeOf(() => build(HOSTILE_DEFINITIONS[name]()), 5_000);
      tally.record(outcome);
      expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    },
  );

  it.each<[keyof typeof HOSTILE_DEFINITIONS, string]>([
    ["a non-object inputSchema", "inputSchema"],
    ["an array outputSchema", "outputSchema"],
    ["no inputSchema", "inputSchema"],
    ["catastrophic and backreference patterns", "unsupported-pattern"],
    ["an external $ref to a local file", "$ref"],
    ["a task-only tool", "execution.taskSupport"],
  ])("%s compiles with %s reported", async (name, construct) => {
    const outcome = await outcomeOf(() => build(HOSTILE_DEFINITIONS[name]()), 5_000);
    const reported = outcome.kind === "ok" && reports(outcome.value, construct);
    tally.record(outcome, { reported });
    expect(reported).toBe(true);
  });

  it.each<[keyof typeof HOSTILE_DEFINITIONS]>([
    ["odd tool names"],
    ["a 100,000-value enum"],
    ["a 20,000-property inputSchema"],
    ["a 2 MB description"],
    ["malformed annotations"],
  ])("%s compiles as untrusted, unclassified data", async (name) => {
    const outcome = await outcomeOf(() => build(HOSTILE_DEFINITIONS[name](), { effects: {} }), 5_000);
    tally.record(outcome, { reported: false });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind !== "ok") return;
    const endpoints = outcome.value.tools[0]?.endpoints ?? [];
    expect(endpoints.map((endpoint) => endpoint.effect)).toEqual(endpoints.map(() => "unclassified"));
    expect((outcome.value.notes ?? []).length).toBe(0);
  });

  it("keeps __proto__ and constructor property names as own parameters", async () => {
    const outcome = await outcomeOf(() => build(HOSTILE_DEFINITIONS["__proto__ keys in a schema"]()), 5_000);
    tally.record(outcome, { reported: false });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind !== "ok") return;
    const endpoint = outcome.value.tools[0]!.endpoints[0]!;
    expect(endpoint.parameters.map((parameter) => parameter.name)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});

/**
 * Bugs this suite found, now fixed: each case asserts the behaviour they should have.
 */
describe("known bugs in compiling hostile definitions", () => {
  it("fixed: a 2,000-level inputSchema crashes the compile with an untyped RangeError", async () => {
    const outcome = await outcomeOf(() => build(HOSTILE_DEFINITIONS["a 2,000-level schema"]()), 5_000);
    expect(outcome.kind === "refused" || reports(outcome.value, "inputSchema")).toBe(true);
  });

  it("fixed: a nested __proto__ key becomes the prototype of the compiled schema", async () => {
    const outcome = await outcomeOf(
      () => build(HOSTILE_DEFINITIONS["__proto__ in a nested schema"]()),
      5_000,
    );
    if (outcome.kind !== "ok") return;
    const x = outcome.value.tools[0]!.endpoints[0]!.parameters.find((parameter) => parameter.name === "x");
    const schema = x?.schema as Record<string, unknown>;
    expect(Object.getPrototypeOf(schema)).toBe(Object.prototype);
    expect(schema.type).toBeUndefined();
  });

  it("fixed: tools named constructor, toString or __proto__ compile into an artifact load refuses", async () => {
    const project = tempProject("hostile-mcp-proto");
    const stdio = { command: process.execPath, args: [SERVER, "list-prototype-names"] };
    project.write({ sources: { proto: { kind: "mcp", stdio, effects: { lookup: "read" } } } });
    const compiled = await outcomeOf(() => compile({ config: project.configPath, env: {} }), 10_000);
    if (compiled.kind === "refused") return;
    await expect(SchemaRouter.load({ root: project.dir })).resolves.toBeInstanceOf(SchemaRouter);
  });
});

describe("lying annotations never grant authority", () => {
  it("a destructive tool that says readOnlyHint stays unclassified, with a note", async () => {
    const outcome = await outcomeOf(() => build(BASE_TOOLS), 5_000);
    tally.record(outcome, { reported: outcome.kind === "ok" && reports(outcome.value, "readOnlyHint=true") });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind !== "ok") return;
    const wipe = outcome.value.tools[0]!.endpoints.find((endpoint) => endpoint.name === "wipe");
    expect(wipe?.effect).toBe("unclassified");
    expect(outcome.value.notes).toContain(
      "tool wipe says readOnlyHint=true; classify it in effects to trust it",
    );
  });

  it("the local classification wins over the annotation", async () => {
    const outcome = await outcomeOf(() => build(BASE_TOOLS, { effects: { wipe: "destructive" } }), 5_000);
    tally.record(outcome, {
      reported: outcome.kind === "ok" && reports(outcome.value, "local classification"),
    });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind !== "ok") return;
    expect(outcome.value.tools[0]!.endpoints.find((endpoint) => endpoint.name === "wipe")?.effect).toBe(
      "destructive",
    );
    expect(outcome.value.notes).toContain(
      'tool wipe says readOnlyHint=true but effects classifies it as "destructive"; the local classification applies',
    );
  });
});

describe("calling a hostile server through the router", () => {
  let project: TempProject;
  beforeAll(async () => {
    project = tempProject("hostile-mcp");
    const stdio = { command: process.execPath, args: [SERVER], env: ["CANARY_TOKEN"] };
    project.write({
      sources: {
        hostile: { kind: "mcp", stdio, effects: { lookup: "read", note: "write" } },
        classified: { kind: "mcp", stdio, effects: { lookup: "read", note: "write", wipe: "destructive" } },
      },
    });
    await compile({ config: project.configPath, env: { CANARY_TOKEN: CANARY } });
  }, 60_000);

  it("writes no secret into artifacts, lockfile or bindings", () => {
    expect(existsSync(project.lockfile)).toBe(true);
    assertNoSecret(CANARY, filesUnder(project.dir));
  });

  interface CallOptions {
    readonly policy?: ExecutionPolicy;
    readonly tool?: string;
    /** Put payloads in events (default true: the strongest place to look for a leak). */
    readonly includePayloads?: boolean;
  }

  /** One call of `endpoint` through a freshly loaded router whose binding runs the server in `mode`. */
  async function callWith(mode: string, endpoint: string, options: CallOptions = {}) {
    const tool = options.tool ?? "hostile";
    const log = join(project.dir, `calls-${mode}-${tool}-${endpoint}.log`);
    const env = { HOSTILE_MODE: mode, HOSTILE_LOG: log, CANARY_TOKEN: CANARY };
    const stdio = {
      command: process.execPath,
      args: [SERVER],
      env,
      stderr: "ignore" as const,
      connectTimeoutMs: 2_000,
    };
    const router = await SchemaRouter.load({
      root: project.dir,
      policy: options.policy ?? new ExecutionPolicy({ allowMutations: true }),
      bindings: { [tool]: { mcp: { stdio }, timeoutMs: 500 } },
    });
    const registered = router.registry.get(tool)!;
    const store = new MemoryTraceStore();
    const call = {
      tool,
      endpoint,
      arguments: {},
      endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
      toolFingerprint: registered.fingerprint,
    };
    const includePayloads = options.includePayloads ?? true;
    try {
      const outcome = await outcomeOf(() => router.call(call, { traceStore: store, includePayloads }), 8_000);
      assertNoSecret(CANARY, store.events);
      const methods = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
      return { outcome, events: store.events, methods };
    } finally {
      await router.close();
    }
  }

  it.each<[string, string, string]>([
    ["call-never", "note", "INVOCATION_UNAVAILABLE"],
    ["call-crash", "note", "INVOCATION_UNAVAILABLE"],
    ["call-wrong-id", "note", "INVOCATION_UNAVAILABLE"],
    ["call-not-jsonrpc", "note", "INVOCATION_UNAVAILABLE"],
    ["call-invalid-json", "note", "INVOCATION_UNAVAILABLE"],
    ["call-result-missing", "note", "INVOCATION_UNAVAILABLE"],
    ["call-slow-drip", "lookup", "INVOCATION_UNAVAILABLE"],
    ["call-oversized", "lookup", "INVOCATION_UNAVAILABLE"],
    ["call-error-huge", "lookup", "TOOL_ERROR"],
    // A JSON-RPC error that borrows the SDK's local ConnectionClosed / RequestTimeout codes reads as
    // unavailability (retryable): a server can only make its own calls fail, never succeed.
    ["call-error-claims-closed", "lookup", "INVOCATION_UNAVAILABLE"],
    ["call-error-claims-timeout", "lookup", "INVOCATION_UNAVAILABLE"],
    ["call-is-error-huge", "lookup", "TOOL_ERROR"],
    ["call-output-violation", "note", "OUTPUT_SCHEMA_VIOLATION"],
    ["call-no-structured", "note", "OUTPUT_SCHEMA_VIOLATION"],
    ["call-non-finite", "note", "OUTPUT_SCHEMA_VIOLATION"],
    ["relist-crash", "note", "INVOCATION_UNAVAILABLE"],
    ["relist-never", "note", "INVOCATION_UNAVAILABLE"],
    ["relist-drift", "note", "REMOTE_DRIFT"],
    ["list-never", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-crash", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-result-not-object", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-invalid-json", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-cursor-endless", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-deep-schema", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-duplicate-across-pages", "lookup", "REMOTE_DRIFT"],
    ["init-crash", "lookup", "INVOCATION_UNAVAILABLE"],
    ["init-bad-version", "lookup", "INVOCATION_UNAVAILABLE"],
  ])("%s (%s) is refused with %s", async (mode, endpoint, code) => {
    const { outcome, events } = await callWith(mode, endpoint);
    tally.record(outcome);
    assertNoSecret(CANARY, outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    if (outcome.kind === "refused") expect(outcome.error.message.length).toBeLessThan(5_000);
    expect(events.at(-1)).toMatchObject({ type: "run.error", code });
  });

  it.each<[string]>([["call-content-not-array"], ["call-structured-not-object"]])(
    "%s is a malformed result: TOOL_ERROR, not retryable, and the connection is kept",
    async (mode) => {
      const { outcome, methods } = await callWith(mode, "lookup");
      tally.record(outcome);
      expect(outcome.kind === "refused" && outcome.error).toMatchObject({
        code: "TOOL_ERROR",
        retryable: false,
        details: { reason: "malformed-result" },
      });
      expect(methods.filter((method) => method === "initialize")).toHaveLength(1);
    },
  );

  it.each<[string, string]>([
    ["list-changed-storm", "lookup"],
    ["list-changed-storm", "note"],
    ["call-garbage-then-ok", "note"],
    ["call-notification-flood", "note"],
    ["call-list-changed-flood", "note"],
    ["call-progress-spoof", "note"],
    ["call-server-requests", "note"],
    ["call-proto", "note"],
    ["stdout-garbage", "lookup"],
    ["init-huge-instructions", "lookup"],
  ])("%s (%s) succeeds within bounds", async (mode, endpoint) => {
    const { outcome } = await callWith(mode, endpoint);
    tally.record(outcome);
    assertNoSecret(CANARY, outcome);
    expect(outcome.kind).toBe("ok");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("call-deep (note): a result nested 100,000 levels deep is refused, not copied or projected", async () => {
    const { outcome } = await callWith("call-deep", "note");
    tally.record(outcome);
    assertNoSecret(CANARY, outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it.each<[string, string, ExecutionPolicy]>([
    ["hostile", "an unclassified tool that claims readOnlyHint, default policy", new ExecutionPolicy()],
    [
      "hostile",
      "an unclassified tool that claims readOnlyHint, mutations allowed",
      new ExecutionPolicy({ allowMutations: true }),
    ],
    [
      "classified",
      "a destructive tool that claims readOnlyHint, mutations allowed",
      new ExecutionPolicy({ allowMutations: true }),
    ],
  ])("%s: %s is denied before anything is sent", async (tool, _name, policy) => {
    const { outcome, methods } = await callWith("ok", "wipe", { policy, tool });
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("POLICY_DENIED");
    expect(methods).not.toContain("tools/call");
  });

  it("a server that echoes its secret into an error: run events and traces still carry none", async () => {
    const { outcome, events } = await callWith("call-echo-secret", "lookup", { includePayloads: false });
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("TOOL_ERROR");
    expect(events.map((event) => event.type)).toContain("run.error");
  });
});
