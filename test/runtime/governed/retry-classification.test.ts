/**
 * An attempt never runs on a contract or binding that changed after the call was
 * prepared. The current registry and bindings are checked again right before every invoker attempt
 * (first, retries after a backoff sleep, fallback routes), driven over HTTP against the fault server.
 */
import { describe, expect, it } from "vitest";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import type { ToolSpec } from "../../../runtime/model/specs.js";
import type { SchemaRouter } from "../../../runtime/router/router.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import type { StoredEvent, TraceStore } from "../../../runtime/traces/store.js";
import {
  type Fault,
  faultRouter,
  MIRROR,
  OK_READING as OK,
  pin,
  startFaultServer,
  WEATHER,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const UNAVAILABLE: Fault = { reply: "status", status: 503 };

const cleanups = cleanupAfterEach();

async function setup() {
  const server = await startFaultServer();
  cleanups.push(() => server.close());
  const router = faultRouter(server, { availability: { cooldownMs: 0 } });
  cleanups.push(() => router.close());
  return { server, router };
}

/** An in-memory TraceStore that runs `onAppend` for every event before it resolves the append. */
class HookedStore implements TraceStore {
  readonly events: RunEvent[] = [];
  constructor(private readonly onAppend: (event: RunEvent) => void) {}
  async append(event: RunEvent): Promise<void> {
    this.events.push(event);
    this.onAppend(event);
  }
  async readRun(runId: string): Promise<readonly StoredEvent[]> {
    return this.events
      .filter((event) => event.runId === runId)
      .map((event) => ({ runId, sequence: event.sequence, data: JSON.stringify(event) }));
  }
  async listRuns(): Promise<readonly string[]> {
    return [...new Set(this.events.map((event) => event.runId))];
  }
  async close(): Promise<void> {}
}

const changed = (spec: ToolSpec): ToolSpec => ({ ...spec, description: `${spec.description} (v2)` });
const replace = (router: SchemaRouter, spec: ToolSpec) =>
  router.replaceTool({ tool: changed(spec), source: spec.name, sourceKind: "openapi", defs: {} });

describe("attempts re-check the current contract and binding", () => {
  it("refuses a retry when the tool was replaced during the first attempt or its backoff (STALE_TOOL_FINGERPRINT)", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [UNAVAILABLE], OK);
    const store = new HookedStore((event) => {
      if (event.type === "tool.start" && event.attempt === 1) setImmediate(() => replace(router, WEATHER));
    });
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), {
        retry: new RetryPolicy({ maxAttempts: 3, initialDelayMs: 20 }),
        traceStore: store,
      }),
    );
    expect(error.code).toBe("STALE_TOOL_FINGERPRINT");
    expect(server.hits("/weather/seoul")).toBe(1);
    const starts = store.events.filter((event) => event.type === "tool.start");
    expect(starts).toHaveLength(1);
    expect(store.events.at(-2)).toMatchObject({ type: "tool.error", code: "STALE_TOOL_FINGERPRINT" });
  });

  it("refuses the attempt when the contract changes while tool.start is being stored", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [], OK);
    const store = new HookedStore((event) => {
      if (event.type === "tool.start") replace(router, WEATHER);
    });
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), { traceStore: store }),
    );
    expect(error.code).toBe("STALE_TOOL_FINGERPRINT");
    expect(server.hits("/weather/seoul")).toBe(0);
  });

  it("refuses the attempt when the tool is rebound to another invoker meanwhile (STALE_BINDING)", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [], OK);
    let replacementCalls = 0;
    const store = new HookedStore((event) => {
      if (event.type !== "tool.start") return;
      router.bind("weather", {
        invoke: async () => {
          replacementCalls++;
          return { city: "seoul" };
        },
      });
    });
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), { traceStore: store }),
    );
    expect(error).toMatchObject({ code: "STALE_BINDING", details: { reason: "rebound" } });
    expect(server.hits("/weather/seoul")).toBe(0);
    expect(replacementCalls).toBe(0);
  });

  it("checks a fallback route right before its attempt too", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [], UNAVAILABLE);
    server.program("/mirror/seoul", [], OK);
    const store = new HookedStore((event) => {
      if (event.type === "tool.start" && event.tool === "mirror") replace(router, MIRROR);
    });
    const call = {
      ...pin(router, "weather", "current", { city: "seoul" }, ["tempC"]),
      fallbacks: [pin(router, "mirror", "current", { city: "seoul" }, ["tempC"])],
    };
    const error = await failure(router.invoke(call, { traceStore: store }));
    expect(error.code).toBe("STALE_TOOL_FINGERPRINT");
    expect(server.hits("/weather/seoul")).toBe(1);
    expect(server.hits("/mirror/seoul")).toBe(0);
  });

  it("still retries when nothing changed", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [UNAVAILABLE], OK);
    const [result] = await router.invoke(pin(router, "weather", "current", { city: "seoul" }), {
      retry: new RetryPolicy({ maxAttempts: 2, initialDelayMs: 1 }),
    });
    expect(result).toMatchObject({ attempts: 2, data: { city: "seoul", tempC: 21, humidity: 40 } });
  });
});
