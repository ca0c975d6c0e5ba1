/** The MCP runtime invoker over stdio and Streamable HTTP: results, tool errors, live drift against the locked digests, timeouts, aborts, reconnects. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mcpAdapter } from "../../../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import type { Invoker } from "../../../../runtime/boundary/invoker.js";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
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
  stdio,
  toolOf,
} from "../../../fixtures/mcp/harness.js";
import { type McpHttpFixture, startMcpHttpServer } from "../../../fixtures/mcp/server.js";

const READS = Object.fromEntries(
  [
    "bad_output",
    "echo_weather",
    "env_probe",
    "exits",
    "fails",
    "hangs",
    "mutable",
    "nested",
    "no_schema",
    "removable",
  ].map((tool) => [tool, "read" as const]),
);

describe("MCP runtime invoker", () => {
  let compiled: SourceResult;
  const open: Invoker[] = [];
  beforeAll(async () => {
    // Locally classified reads: these tests are about results and connections, so each call is checked
    // against the listing at connect (non-read calls list again first; see the relisting tests below).
    compiled = await mcpAdapter.resolve("fixture", stdio({ effects: READS }), sourceContext());
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

  it("lists the tools again before every unclassified or write call, not before reads", async () => {
    const { invoker, reports } = stdioInvoker();
    await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }));
    expect(reports).toHaveLength(1);
    await invoker.invoke(invocation(compiled, extraEndpoint("with_refs"), { point: { x: 1, y: 2 } }));
    expect(reports).toHaveLength(2);
    await invoker.invoke(invocation(compiled, "control", { action: "reset", silent: true }));
    expect(reports).toHaveLength(3);
    await invoker.invoke(invocation(compiled, "echo_weather", { city: "Oslo" }));
    expect(reports).toHaveLength(3);
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
