import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpSourceConfig, mcpSourceConfigSchema } from "../../../../compiler/config/mcp-source.js";
import { buildMcpSource, mcpAdapter } from "../../../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import type { Invoker } from "../../../../runtime/boundary/invoker.js";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
import { DefinitionSet, fingerprintTool } from "../../../../runtime/format/fingerprint.js";
import { mcpRemoteDigest } from "../../../../runtime/format/mcp-digest.js";
import type { JsonObject } from "../../../../runtime/model/specs.js";
import type { ListedTool } from "../../../../runtime/transports/mcp/list.js";
import { checkMcpUrl } from "../../../../runtime/transports/mcp/target.js";
import {
  createMcpInvoker,
  httpClientFactory,
  type McpDriftReport,
  pickEnv,
  stdioClientFactory,
} from "../../../../runtime/transports/mcp/transport.js";
import {
  endpointOf,
  expectedDigests,
  extraEndpoint,
  FIXTURE_STDIO_ARGS,
  invocation,
  rejection,
  sourceContext,
  toolOf,
} from "../../../fixtures/mcp/harness.js";
import { type McpHttpFixture, startMcpHttpServer } from "../../../fixtures/mcp/server.js";
import { createFixtureState, FIXTURE_PAGE_SIZE, listFixtureTools } from "../../../fixtures/mcp/tools.mjs";

const stdio = (extra: Partial<McpSourceConfig> = {}, env: readonly string[] = []): McpSourceConfig => ({
  kind: "mcp",
  stdio: { command: "node", args: [...FIXTURE_STDIO_ARGS], env: [...env] },
  ...extra,
});

const fixtureTools = listFixtureTools(createFixtureState());
const compilable = fixtureTools.map((tool) => tool.name as string).filter((name) => name !== "task_only");

describe("MCP compile over stdio", () => {
  let compiled: SourceResult;
  beforeAll(async () => {
    compiled = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
  });

  it("lists every page and compiles one ToolSpec with one endpoint per tool", () => {
    expect(fixtureTools.length).toBeGreaterThan(3 * FIXTURE_PAGE_SIZE);
    const tool = toolOf(compiled);
    expect(tool).toMatchObject({
      name: "fixture",
      namespace: "fixture",
      provider: "schemarouter-fixture",
      accessMode: "mcp",
      remote: true,
      execution: { transport: "mcp", server: "stdio", identity: "node test/fixtures/mcp/stdio-server.mjs" },
    });
    expect(tool.endpoints.map((endpoint) => endpoint.name)).toEqual([...compilable].sort());
    expect(compiled.location).toBe("node test/fixtures/mcp/stdio-server.mjs");
  });

  it("maps parameters, output schemas and fields with x-unit units", () => {
    const tool = toolOf(compiled);
    const weather = endpointOf(tool, "echo_weather");
    expect(weather.parameters).toEqual([
      {
        name: "city",
        location: "argument",
        required: true,
        schema: { type: "string", description: "City name" },
        description: "City name",
      },
    ]);
    expect(weather.outputSchema).toEqual(fixtureTools.find((t) => t.name === "echo_weather")?.outputSchema);
    expect(weather.execution).toEqual({ kind: "mcp", toolName: "echo_weather" });
    expect(weather.fields.map((f) => [f.id, f.unit])).toEqual([
      ["city", undefined],
      ["temperature", "Cel"],
      ["wind_speed", "m/s"],
    ]);
    const plain = endpointOf(tool, "no_schema");
    expect(plain.outputSchema).toEqual({});
    expect(plain.fields).toEqual([]);
    expect(endpointOf(tool, "nested").fields.map((f) => f.id)).toEqual(["station", "readings"]);
    expect(weather.metadata).toMatchObject({ untrusted: true, annotationHints: { readOnlyHint: true } });
  });

  it("leaves every tool unclassified and only suggests what annotations say", () => {
    expect(new Set(toolOf(compiled).endpoints.map((e) => e.effect))).toEqual(new Set(["unclassified"]));
    expect(compiled.notes).toContain(
      "tool echo_weather says readOnlyHint=true; classify it in effects to trust it",
    );
    expect(compiled.notes).toContain(
      "tool fails says readOnlyHint=false, destructiveHint=false; classify it in effects to trust it",
    );
  });

  it("classifies tools only through local effects", async () => {
    const result = await mcpAdapter.resolve(
      "fixture",
      stdio({ effects: { echo_weather: "read", fails: "destructive", control: "write" } }),
      sourceContext(),
    );
    const tool = toolOf(result);
    expect(endpointOf(tool, "echo_weather").effect).toBe("read");
    expect(endpointOf(tool, "fails").effect).toBe("destructive");
    expect(endpointOf(tool, "control").effect).toBe("write");
    expect(endpointOf(tool, "no_schema").effect).toBe("unclassified");
    expect(result.notes).toContain(
      'tool fails says readOnlyHint=false, destructiveHint=false but effects classifies it as "destructive"; the local classification applies',
    );
    expect(result.notes?.some((note) => note.startsWith("tool echo_weather"))).toBe(false);
  });

  it("reports task-only tools as unsupported instead of compiling them", () => {
    expect(compiled.compatibility).toContainEqual(
      expect.objectContaining({
        pointer: "/tools/task_only",
        construct: "execution.taskSupport",
        level: "unsupported",
      }),
    );
    expect(toolOf(compiled).endpoints.some((e) => e.name === "task_only")).toBe(false);
  });

  it("pins a remote digest for every listed tool (compiled or not), deterministically", async () => {
    const digests = compiled.remoteDigests?.fixture ?? {};
    expect(Object.keys(digests).sort()).toEqual(fixtureTools.map((t) => t.name).sort());
    for (const def of fixtureTools) {
      expect(digests[def.name as string]).toBe(mcpRemoteDigest(def));
    }
    const again = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
    expect(again).toEqual(compiled);
  });

  it("hoists a tool's local $defs into shared definitions and keeps the raw definition", () => {
    const tool = toolOf(compiled);
    const refs = endpointOf(tool, "with_refs");
    expect(refs.parameters[0]?.schema).toEqual({ $ref: "#/$defs/with_refs.input.Point" });
    expect(compiled.defs["with_refs.input.Point"]).toMatchObject({ required: ["x", "y"] });
    expect(refs.inputSchema).not.toHaveProperty("$defs");
    expect(refs.metadata?.definition).toMatchObject({
      inputSchema: { properties: { point: { $ref: "#/$defs/Point" } } },
    });
    expect(() => fingerprintTool(tool, new DefinitionSet(compiled.defs))).not.toThrow();
  });

  it("adds trusted result fields for a tool without outputSchema, leaving its schemas alone", async () => {
    const results = { no_schema: { fields: [{ id: "text", path: ["0", "text"], semanticId: "echo:text" }] } };
    const tool = toolOf(await mcpAdapter.resolve("fixture", stdio({ results }), sourceContext()));
    const plain = endpointOf(tool, "no_schema");
    expect(plain.fields).toEqual([
      { id: "text", path: ["0", "text"], semanticId: "echo:text", overlay: true },
    ]);
    expect(plain.outputSchema).toEqual({});
    expect(plain.execution).toEqual(endpointOf(toolOf(compiled), "no_schema").execution);
  });

  it("passes only allowlisted environment variables to the server (not even PATH)", async () => {
    const env = { FIXTURE_VISIBLE: "yes", FIXTURE_HIDDEN: "no", PATH: process.env.PATH, HOME: "/home/x" };
    const result = await mcpAdapter.resolve(
      "fixture",
      stdio({}, ["FIXTURE_VISIBLE", "FIXTURE_UNSET"]),
      sourceContext(env),
    );
    expect(toolOf(result).metadata?.instructions).toBe("env: FIXTURE_VISIBLE");
    expect(JSON.stringify(result)).not.toContain('"yes"');
  });

  it.each<[string, McpSourceConfig, string]>([
    ["stdio and url", { ...stdio(), url: "https://example.invalid/mcp" }, "MCP_CONFIG_INVALID"],
    ["neither stdio nor url", { kind: "mcp" }, "MCP_CONFIG_INVALID"],
    ["headers on stdio", stdio({ headers: { authorization: { env: "TOKEN" } } }), "MCP_CONFIG_INVALID"],
    ["effects for an unlisted tool", stdio({ effects: { ghost: "read" } }), "MCP_CONFIG_INVALID"],
    [
      "a result field that collides with a derived field",
      stdio({ results: { echo_weather: { fields: [{ id: "temperature", path: ["temperature"] }] } } }),
      "MCP_CONFIG_INVALID",
    ],
    ["an invalid env allowlist name", stdio({}, ["NOT-A-NAME"]), "MCP_CONFIG_INVALID"],
    [
      "a command that does not exist",
      { kind: "mcp", stdio: { command: "schemarouter-no-such-command" } },
      "MCP_CONNECT_FAILED",
    ],
  ])("refuses %s", async (_name, config, code) => {
    expect((await rejection(mcpAdapter.resolve("fixture", config, sourceContext()))).code).toBe(code);
  });
});

describe("MCP source config schema fragment", () => {
  const validator = new ValidatorSet();
  it.each<[string, unknown, boolean]>([
    ["stdio with an env allowlist", { kind: "mcp", stdio: { command: "node", env: ["HOME"] } }, true],
    [
      "url with env headers",
      { kind: "mcp", url: "https://mcp.example.com/mcp", headers: { authorization: { env: "T" } } },
      true,
    ],
    ["both stdio and url", { kind: "mcp", stdio: { command: "node" }, url: "https://a.example/mcp" }, false],
    ["neither stdio nor url", { kind: "mcp" }, false],
    ["headers with stdio", { kind: "mcp", stdio: { command: "node" }, headers: { a: { env: "T" } } }, false],
    [
      "a literal header value",
      { kind: "mcp", url: "https://a.example/mcp", headers: { authorization: "Bearer x" } },
      false,
    ],
    ["a query string", { kind: "mcp", url: "https://a.example/mcp?token=x" }, false],
    ["an unknown effect", { kind: "mcp", stdio: { command: "node" }, effects: { t: "safe" } }, false],
  ])("%s → valid: %s", (_name, config, valid) => {
    expect(validator.validate(mcpSourceConfigSchema, config).length === 0).toBe(valid);
  });
});

describe("MCP definitions as untrusted data (buildMcpSource)", () => {
  const facts = {
    execution: { transport: "mcp", server: "stdio", identity: "srv" },
    server: { name: "srv", version: "1" },
  } as const;
  const build = (tools: readonly JsonObject[]) =>
    buildMcpSource("s", { kind: "mcp", stdio: { command: "srv" } }, tools as ListedTool[], facts);
  const point = { type: "object", properties: { x: { type: "number" } } };

  it.each<[string, JsonObject, string]>([
    [
      "a non-root JSON pointer",
      { type: "object", properties: { a: {}, b: { $ref: "#/properties/a" } } },
      "$ref",
    ],
    [
      "a remote reference",
      { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } },
      "$ref",
    ],
    [
      "a reference to a missing definition",
      { type: "object", properties: { a: { $ref: "#/$defs/Nope" } } },
      "$ref",
    ],
    ["$dynamicRef", { type: "object", properties: { a: { $dynamicRef: "#node" } } }, "$ref"],
    ["a nested $id", { type: "object", properties: { a: { $id: "https://example.com/a" } } }, "$ref"],
  ])("reports an input schema with %s as unsupported", (_name, inputSchema, construct) => {
    const result = build([{ name: "t", inputSchema }]);
    expect(result.compatibility).toEqual([
      expect.objectContaining({ pointer: "/tools/t", construct, level: "unsupported" }),
    ]);
    expect(toolOf(result).endpoints).toEqual([]);
    expect(result.defs).toEqual({});
  });

  it.each<[string, JsonObject]>([
    ["no inputSchema", { name: "t" }],
    ["a non-object outputSchema", { name: "t", inputSchema: { type: "object" }, outputSchema: "x" }],
  ])("reports a definition with %s as unsupported", (_name, def) => {
    expect(build([def]).compatibility).toHaveLength(1);
  });

  it("hoists draft-07 definitions and schema-valued properties named like keywords", () => {
    const inputSchema = {
      type: "object",
      properties: { default: { $ref: "#/definitions/P" }, $id: { type: "string" } },
      definitions: { P: point },
    };
    const result = build([{ name: "t", inputSchema }]);
    expect(result.compatibility).toEqual([]);
    const endpoint = endpointOf(toolOf(result), "t");
    expect(endpoint.inputSchema).toEqual({
      type: "object",
      properties: { default: { $ref: "#/$defs/t.input.P" }, $id: { type: "string" } },
    });
    expect(result.defs).toEqual({ "t.input.P": point });
  });

  it("refuses a server that lists a tool name twice", () => {
    const tool = { name: "t", inputSchema: { type: "object" } };
    expect(() => build([tool, tool])).toThrow(expect.objectContaining({ code: "MCP_LIST_FAILED" }));
  });
});

describe("MCP compile over Streamable HTTP", () => {
  let fixture: McpHttpFixture;
  let secured: McpHttpFixture;
  beforeAll(async () => {
    fixture = await startMcpHttpServer();
    secured = await startMcpHttpServer({ bearerToken: "s3cret-token" });
  });
  afterAll(async () => {
    await fixture.close();
    await secured.close();
  });

  it("compiles the same definitions as over stdio, with the URL as identity", async () => {
    const result = await mcpAdapter.resolve("fixture", { kind: "mcp", url: fixture.url }, sourceContext());
    const viaStdio = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
    expect(toolOf(result).execution).toEqual({ transport: "mcp", server: "http", identity: fixture.url });
    expect(result.remoteDigests).toEqual(viaStdio.remoteDigests);
    expect(result.documentDigest).toBe(viaStdio.documentDigest);
  });

  it("sends headers from named environment variables and never stores their values", async () => {
    const config: McpSourceConfig = {
      kind: "mcp",
      url: secured.url,
      headers: { authorization: { env: "FIXTURE_TOKEN" } },
    };
    const result = await mcpAdapter.resolve(
      "secured",
      config,
      sourceContext({ FIXTURE_TOKEN: "Bearer s3cret-token" }),
    );
    expect(toolOf(result).endpoints.length).toBe(compilable.length);
    expect(JSON.stringify(result)).not.toContain("s3cret");
    expect((await rejection(mcpAdapter.resolve("secured", config, sourceContext()))).code).toBe(
      "MCP_ENV_MISSING",
    );
    const wrong = sourceContext({ FIXTURE_TOKEN: "Bearer wrong" });
    expect((await rejection(mcpAdapter.resolve("secured", config, wrong))).code).toBe("MCP_CONNECT_FAILED");
  });

  it.each<[string, (base: string) => string, string, Record<string, { env: string }>?]>([
    ["userinfo", (base) => base.replace("http://", "http://user:pw@"), "MCP_URL_CREDENTIALS"],
    ["a token in the query", (base) => `${base}?access_token=abc`, "MCP_URL_CREDENTIALS"],
    ["an empty query", (base) => `${base}?`, "MCP_URL_CREDENTIALS"],
    ["a fragment", (base) => `${base}#part`, "MCP_URL_INVALID"],
    ["a non-http scheme", () => "ftp://127.0.0.1/mcp", "MCP_URL_INVALID"],
    ["plain http to a non-loopback host", () => "http://mcp.example.com/mcp", "MCP_URL_INSECURE"],
    [
      "a protocol-controlled header",
      (base) => base,
      "MCP_CONFIG_INVALID",
      { "Mcp-Session-Id": { env: "X" } },
    ],
  ])("refuses a URL with %s", async (_name, url, code, headers) => {
    const config: McpSourceConfig = { kind: "mcp", url: url(fixture.url), ...(headers ? { headers } : {}) };
    const error = await rejection(mcpAdapter.resolve("fixture", config, sourceContext({ X: "v" })));
    expect(error.code).toBe(code);
    expect(JSON.stringify(error.details)).not.toContain("pw");
    expect(JSON.stringify(error.details)).not.toContain("abc");
  });

  it("allows plain http to other hosts only with the local opt-in", () => {
    expect(checkMcpUrl("http://mcp.example.com/mcp", { allowInsecureHttp: true }).host).toBe(
      "mcp.example.com",
    );
    expect(checkMcpUrl("http://[::1]:8080/mcp").hostname).toBe("[::1]");
  });

  it("keeps the remote digests equal to the fixture's definitions", async () => {
    const result = await mcpAdapter.resolve("fixture", { kind: "mcp", url: fixture.url }, sourceContext());
    expect(expectedDigests(result).get("echo_weather")).toBe(
      mcpRemoteDigest(fixtureTools.find((t) => t.name === "echo_weather") ?? {}),
    );
  });
});

describe("MCP runtime invoker", () => {
  let compiled: SourceResult;
  const open: Invoker[] = [];
  beforeAll(async () => {
    compiled = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((invoker) => invoker.close?.()));
  });

  /** A fresh invoker over a fresh stdio server; `reports` collects every completed listing. */
  const stdioInvoker = (
    options: { timeoutMs?: number; expected?: Map<string, string>; env?: Record<string, string> } = {},
  ) => {
    const reports: McpDriftReport[] = [];
    const invoker = createMcpInvoker({
      source: "fixture",
      connect: stdioClientFactory({
        command: "node",
        args: [...FIXTURE_STDIO_ARGS],
        env: options.env ?? {},
        stderr: "ignore",
      }),
      expected: options.expected ?? expectedDigests(compiled),
      timeoutMs: options.timeoutMs ?? 10_000,
      onToolsChecked: (report) => reports.push(report),
    });
    open.push(invoker);
    return { invoker, reports };
  };

  it("returns structuredContent for declared output schemas and content otherwise", async () => {
    const { invoker, reports } = stdioInvoker();
    expect(await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }))).toEqual({
      city: "Oslo",
      temperature: 21.5,
      wind_speed: 3.2,
    });
    const nested = await invoker.invoke(invocation(compiled, "nested", { station: "s1" }));
    expect(nested).toMatchObject({ station: { id: "s1" }, readings: [{ value: 1.5 }, { value: 2.25 }] });
    expect(await invoker.invoke(invocation(compiled, "no_schema", { text: "hi" }))).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.drift.size).toBe(0);
  });

  it("hands bad structured output to the executor unchanged, where the locked schema rejects it", async () => {
    const { invoker } = stdioInvoker();
    const raw = await invoker.invoke(invocation(compiled, "bad_output"));
    expect(raw).toEqual({ count: "many" });
    const violations = new ValidatorSet().validate(
      endpointOf(toolOf(compiled), "bad_output").outputSchema,
      raw,
    );
    expect(violations.map((v) => v.keyword)).toEqual(["type"]);
  });

  it("turns isError results into TOOL_ERROR (not retryable)", async () => {
    const { invoker } = stdioInvoker();
    const error = await rejection(invoker.invoke(invocation(compiled, "fails")));
    expect(error).toMatchObject({
      code: "TOOL_ERROR",
      retryable: false,
      details: { tool: "fails", text: "deliberate failure" },
    });
  });

  it("turns protocol errors, also for a tool the server no longer knows, into TOOL_ERROR", async () => {
    const { invoker } = stdioInvoker();
    await invoker.invoke(invocation(compiled, "control", { action: "remove", silent: true }));
    const unknown = await rejection(invoker.invoke(invocation(compiled, "removable")));
    expect(unknown).toMatchObject({
      code: "TOOL_ERROR",
      retryable: false,
      details: { tool: "removable", mcpCode: -32602 },
    });
    expect(expectedDigests(compiled).has("task_only")).toBe(true);
    const refused = await rejection(invoker.invoke(invocation(compiled, extraEndpoint("task_only"))));
    expect(refused).toMatchObject({ code: "TOOL_ERROR", details: { mcpCode: -32600 } });
  });

  it("refuses a tool whose definition changed on list_changed while matching tools keep working", async () => {
    const { invoker, reports } = stdioInvoker();
    expect(await invoker.invoke(invocation(compiled, "mutable"))).toEqual([
      { type: "text", text: "revision 0" },
    ]);
    await invoker.invoke(invocation(compiled, "control", { action: "describe" }));
    const error = await rejection(invoker.invoke(invocation(compiled, "mutable")));
    expect(error).toMatchObject({ code: "REMOTE_DRIFT", details: { tool: "mutable", change: "changed" } });
    expect(await invoker.invoke(invocation(compiled, "echo_weather", { city: "Rome" }))).toMatchObject({
      city: "Rome",
    });
    expect(reports.at(-1)?.drift).toEqual(new Map([["mutable", "changed"]]));
  });

  it("refuses tools that disappeared or appeared", async () => {
    const { invoker, reports } = stdioInvoker();
    const appeared = extraEndpoint("appeared");
    expect((await rejection(invoker.invoke(invocation(compiled, appeared)))).details).toMatchObject({
      change: "unlocked",
    });
    await invoker.invoke(invocation(compiled, "control", { action: "remove" }));
    await invoker.invoke(invocation(compiled, "control", { action: "add" }));
    const gone = await rejection(invoker.invoke(invocation(compiled, "removable")));
    expect(gone).toMatchObject({
      code: "REMOTE_DRIFT",
      details: { tool: "removable", change: "disappeared" },
    });
    const added = await rejection(invoker.invoke(invocation(compiled, appeared)));
    expect(added).toMatchObject({ code: "REMOTE_DRIFT", details: { tool: "appeared", change: "appeared" } });
    expect(reports.at(-1)?.drift).toEqual(
      new Map([
        ["appeared", "appeared"],
        ["removable", "disappeared"],
      ]),
    );
    expect(await invoker.invoke(invocation(compiled, "mutable"))).toEqual([
      { type: "text", text: "revision 0" },
    ]);
  });

  it("refuses every tool when the lock pins a different definition", async () => {
    const expected = new Map(expectedDigests(compiled));
    expected.set("echo_weather", "sha256:0000000000000000000000000000000000000000000000000000000000000000");
    const { invoker } = stdioInvoker({ expected });
    const error = await rejection(invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" })));
    expect(error).toMatchObject({ code: "REMOTE_DRIFT", details: { change: "changed" } });
  });

  it("gives up on a hanging tool with INVOCATION_UNAVAILABLE and keeps the connection", async () => {
    const { invoker, reports } = stdioInvoker({ timeoutMs: 400 });
    const error = await rejection(invoker.invoke(invocation(compiled, "hangs")));
    expect(error).toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      retryable: true,
      details: { reason: "timeout" },
    });
    expect(await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }))).toMatchObject({
      city: "Oslo",
    });
    expect(reports).toHaveLength(1);
  });

  it("stops waiting when the invocation signal aborts", async () => {
    const { invoker } = stdioInvoker();
    await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }));
    const controller = new AbortController();
    const pending = invoker.invoke(invocation(compiled, "hangs", {}, controller.signal));
    controller.abort(new Error("attempt timeout"));
    expect(await rejection(pending)).toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      details: { reason: "aborted" },
    });
  });

  it("reports a server that exits mid-call as INVOCATION_UNAVAILABLE and reconnects next time", async () => {
    const { invoker, reports } = stdioInvoker();
    const error = await rejection(invoker.invoke(invocation(compiled, "exits")));
    expect(error).toMatchObject({ code: "INVOCATION_UNAVAILABLE", details: { reason: "connection" } });
    expect(await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }))).toMatchObject({
      city: "Oslo",
    });
    expect(reports).toHaveLength(2);
  });

  it("refuses calls after close()", async () => {
    const { invoker } = stdioInvoker();
    await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }));
    await invoker.close?.();
    expect(
      (await rejection(invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" })))).code,
    ).toBe("INVOCATION_UNAVAILABLE");
  });

  it("refuses endpoints that are not MCP endpoints", async () => {
    const { invoker } = stdioInvoker();
    const http = { ...extraEndpoint("x"), execution: { kind: "local" as const, function: "x" } };
    expect((await rejection(invoker.invoke(invocation(compiled, http)))).code).toBe("TRANSPORT_REFUSED");
  });

  it("spawns the server with exactly the allowlisted environment", async () => {
    const env = pickEnv(["FIXTURE_VISIBLE", "FIXTURE_UNSET"], { FIXTURE_VISIBLE: "1", FIXTURE_HIDDEN: "1" });
    expect(env).toEqual({ FIXTURE_VISIBLE: "1" });
    const { invoker } = stdioInvoker({ env });
    const probe = (name: string) => invoker.invoke(invocation(compiled, "env_probe", { name }));
    expect(await probe("FIXTURE_VISIBLE")).toEqual({ name: "FIXTURE_VISIBLE", set: true });
    expect(await probe("FIXTURE_HIDDEN")).toEqual({ name: "FIXTURE_HIDDEN", set: false });
    expect(process.env.PATH).toBeDefined();
    expect(await probe("PATH")).toEqual({ name: "PATH", set: false });
  });

  describe("over Streamable HTTP", () => {
    let fixture: McpHttpFixture;
    beforeAll(async () => {
      fixture = await startMcpHttpServer();
    });
    afterAll(async () => {
      await fixture.close();
    });

    it("re-checks on a server-initiated list_changed and refuses only the drifted tool", async () => {
      const viaHttp = await mcpAdapter.resolve("fixture", { kind: "mcp", url: fixture.url }, sourceContext());
      let notified: (report: McpDriftReport) => void = () => {};
      const drifted = new Promise<McpDriftReport>((resolve) => {
        notified = (report) => {
          if (report.drift.size > 0) resolve(report);
        };
      });
      const invoker = createMcpInvoker({
        source: "fixture",
        connect: httpClientFactory({ url: fixture.url }),
        expected: expectedDigests(viaHttp),
        onToolsChecked: (report) => notified(report),
      });
      open.push(invoker);
      expect(await invoker.invoke(invocation(viaHttp, "mutable"))).toEqual([
        { type: "text", text: "revision 0" },
      ]);
      await fixture.mutate("describe");
      expect((await drifted).drift).toEqual(new Map([["mutable", "changed"]]));
      const error = await rejection(invoker.invoke(invocation(viaHttp, "mutable")));
      expect(error).toMatchObject({ code: "REMOTE_DRIFT", details: { tool: "mutable", change: "changed" } });
      expect(await invoker.invoke(invocation(viaHttp, "echo_weather", { city: "Lima" }))).toMatchObject({
        city: "Lima",
      });
      expect(fixture.sessions()).toBe(2);
    });

    it("checks URL and headers when the factory is built", () => {
      expect(() => httpClientFactory({ url: "https://user:pw@mcp.example.com/mcp" })).toThrow(
        expect.objectContaining({ code: "MCP_URL_CREDENTIALS" }),
      );
      expect(() => httpClientFactory({ url: fixture.url, headers: { "mcp-protocol-version": "1" } })).toThrow(
        expect.objectContaining({ code: "MCP_CONFIG_INVALID" }),
      );
    });
  });
});
