/**
 * Run events (streamed, or persisted in a trace store) carry no argument or
 * payload values unless the run includes payloads. Error messages can quote the filter text, an
 * argument or an upstream body, so tool.error / run.error events carry a structural message (code,
 * route, meaning) instead; the thrown error keeps its message and the values in `details`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { optimadeAdapter } from "../../../compiler/sources/optimade/index.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { redactEvent, structuralErrorMessage } from "../../../runtime/traces/redact.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { faultRouter, pin, startFaultServer } from "../../fixtures/fault-server.js";
import { startOptimadeServer } from "../../fixtures/optimade/server.js";

const SECRET = "PATIENT-ID-4471-SECRET";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "schemarouter-review-redaction-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openStore(dir: string, includePayloads = false): Promise<SqliteTraceStore> {
  const store = await SqliteTraceStore.open(join(dir, "trace.db"), { includePayloads });
  cleanups.push(() => store.close());
  return store;
}

function fileBytes(dir: string): string {
  return ["trace.db", "trace.db-wal"]
    .map((name) => join(dir, name))
    .filter(existsSync)
    .map((path) => readFileSync(path).toString("latin1"))
    .join("");
}

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function optimadeRouter() {
  const server = await startOptimadeServer();
  cleanups.push(() => server.close());
  const result = await optimadeAdapter.resolve(
    "prov",
    { kind: "optimade", location: server.baseUrl },
    { cwd: tmpdir(), env: {}, allowInsecureHttp: false },
  );
  const registered = registerTool({
    tool: result.tools[0]!,
    source: "prov",
    sourceKind: "optimade",
    defs: result.defs,
  });
  const router = SchemaRouter.fromRegistry(new Registry([registered]), {
    bindings: { prov: { optimade: { baseUrl: server.versionedBaseUrl } } },
  });
  cleanups.push(() => router.close());
  const call = {
    tool: "prov",
    endpoint: "list_structures",
    arguments: { filter: `chemical_formula_descriptive="${SECRET}" AND nosuchprop=1` },
    endpointFingerprint: registered.endpointFingerprints.get("list_structures")!,
    toolFingerprint: registered.fingerprint,
  };
  return { router, call };
}

describe("error messages in run events", () => {
  it("keeps an OPTIMADE filter's text out of streamed and stored events", async () => {
    const { router, call } = await optimadeRouter();
    const dir = tempDir();
    const store = await openStore(dir);
    const events = await collect(router.stream(call, { traceStore: store }));
    const error = events.find((event) => event.type === "tool.error");
    expect(error).toMatchObject({
      code: "UNKNOWN_FILTER_PROPERTY",
      message: structuralErrorMessage("UNKNOWN_FILTER_PROPERTY", "prov.list_structures"),
    });
    expect(events.at(-1)).toMatchObject({ type: "run.error", code: "UNKNOWN_FILTER_PROPERTY" });
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(await store.readRun(events[0]!.runId))).not.toContain(SECRET);
    await store.close();
    expect(fileBytes(dir)).not.toContain(SECRET);
    // The direct caller still gets the caret frame, in the message and in details.
    await expect(router.call(call)).rejects.toMatchObject({
      code: "UNKNOWN_FILTER_PROPERTY",
      message: expect.stringContaining(SECRET),
      details: { property: "nosuchprop", frame: expect.stringContaining(SECRET) },
    });
  });

  it("keeps an upstream error body out of events unless the run and the store include payloads", async () => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    server.program("/weather/seoul", [], { reply: "raw", status: 500, text: `upstream echo ${SECRET}` });
    const router = faultRouter(server, { availability: { cooldownMs: 0 } });
    cleanups.push(() => router.close());
    const call = pin(router, "weather", "current", { city: "seoul" });

    const redacted = await collect(router.stream(call));
    expect(redacted.find((event) => event.type === "tool.error")).toMatchObject({
      code: "HTTP_STATUS",
      message: structuralErrorMessage("HTTP_STATUS", "weather.current"),
    });
    expect(JSON.stringify(redacted)).not.toContain(SECRET);

    const included = await collect(router.stream(call, { includePayloads: true }));
    expect(included.find((event) => event.type === "tool.error")).toMatchObject({
      code: "HTTP_STATUS",
      message: expect.stringContaining(SECRET),
    });

    // A store without includePayloads redacts the message again; one with it keeps it.
    const plainDir = tempDir();
    const plain = await openStore(plainDir);
    await collect(router.stream(call, { includePayloads: true, traceStore: plain }));
    await plain.close();
    expect(fileBytes(plainDir)).not.toContain(SECRET);
    const keptDir = tempDir();
    const kept = await openStore(keptDir, true);
    await collect(router.stream(call, { includePayloads: true, traceStore: kept }));
    const [runId] = await kept.listRuns();
    expect(JSON.stringify(await kept.readRun(runId!))).toContain(SECRET);

    await expect(router.call(call)).rejects.toMatchObject({
      code: "HTTP_STATUS",
      details: { status: 500, detail: expect.stringContaining(SECRET) },
    });
  });

  it("keeps an invoker's failure text out of tool.error and run.error", async () => {
    const spec: ToolSpec = {
      name: "t",
      namespace: "t",
      description: "t",
      provider: "p",
      accessMode: "local",
      remote: false,
      execution: { transport: "local", module: "x" },
      endpoints: [
        {
          name: "ep",
          description: "d",
          effect: "read",
          parameters: [],
          inputSchema: { type: "object", additionalProperties: false },
          outputSchema: { type: "object" },
          fields: [],
          execution: { kind: "local", function: "f" },
        },
      ],
    };
    const registered = registerTool({ tool: spec, source: "t", sourceKind: "local", defs: {} });
    const router = SchemaRouter.fromRegistry(new Registry([registered]));
    cleanups.push(() => router.close());
    router.bind("t", {
      invoke: async () => {
        throw new Error(`database row ${SECRET} is locked`);
      },
    });
    const call = {
      tool: "t",
      endpoint: "ep",
      arguments: {},
      endpointFingerprint: registered.endpointFingerprints.get("ep")!,
      toolFingerprint: registered.fingerprint,
    };
    const events = await collect(router.stream(call));
    expect(events.filter((event) => event.type === "tool.error" || event.type === "run.error")).toMatchObject(
      [
        { type: "tool.error", code: "TOOL_ERROR", message: structuralErrorMessage("TOOL_ERROR", "t.ep") },
        { type: "run.error", code: "TOOL_ERROR", message: structuralErrorMessage("TOOL_ERROR") },
      ],
    );
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it("redactEvent replaces error messages by the structural one and is idempotent", () => {
    const base = { runId: "r", sequence: 1, timestamp: new Date(0).toISOString() };
    const toolError: RunEvent = {
      ...base,
      type: "tool.error",
      callIndex: 0,
      tool: "t",
      endpoint: "ep",
      code: "HTTP_STATUS",
      message: SECRET,
      attempts: 1,
    };
    const once = redactEvent(toolError, { includePayloads: false });
    expect(once).toEqual({ ...toolError, message: structuralErrorMessage("HTTP_STATUS", "t.ep") });
    expect(redactEvent(once, { includePayloads: false })).toEqual(once);
    expect(redactEvent(toolError, { includePayloads: true })).toBe(toolError);
    const runError: RunEvent = { ...base, type: "run.error", code: "NOT_A_KNOWN_CODE", message: SECRET };
    expect(JSON.stringify(redactEvent(runError, { includePayloads: false }))).not.toContain(SECRET);
  });
});
