/**
 * Per-endpoint call plans (docs/runtime/execution-boundary.md, "Call plans") never serve a contract,
 * a policy or an approval they were not built for: a replaced contract is checked against its own
 * schemas and pins, a router's policy is its own even over a shared registry, and approval is asked
 * on every call.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { EndpointSpec, ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import {
  FIXTURE_TOOLS,
  faultRouter,
  OK_READING as OK,
  pin,
  startFaultServer,
  WEATHER,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function server() {
  const started = await startFaultServer();
  cleanups.push(() => started.close());
  started.program("/weather/seoul", [], OK);
  started.program("/weather/report", [], { reply: "json", body: { ok: true } });
  return started;
}

/** Binds `weather` (after a replace) to a local invoker answering the OK reading; counts what it is sent. */
function bindReading(router: SchemaRouter): { sent: number } {
  const count = { sent: 0 };
  router.bind("weather", {
    invoke: async () => {
      count.sent++;
      return { city: "seoul", tempC: 21, humidity: 40 };
    },
  });
  return count;
}

/** WEATHER with its `current` endpoint changed by `change`. */
function weatherWith(change: (endpoint: EndpointSpec) => EndpointSpec): ToolSpec {
  return {
    ...WEATHER,
    endpoints: WEATHER.endpoints.map((endpoint) =>
      endpoint.name === "current" ? change(endpoint) : endpoint,
    ),
  };
}

describe("a call plan built for a contract", () => {
  it("serves no replaced contract: the old pins are stale and the new output schema is the one checked", async () => {
    const fault = await server();
    const router = faultRouter(fault);
    cleanups.push(() => router.close());
    const old = pin(router, "weather", "current", { city: "seoul" });
    expect((await router.call(old)).data).toMatchObject({ tempC: 21 });
    router.replaceTool({
      tool: weatherWith((endpoint) => ({
        ...endpoint,
        outputSchema: {
          type: "object",
          required: ["city"],
          properties: { city: { type: "string" }, tempC: { type: "string" } },
        },
      })),
      source: "meteo",
      sourceKind: "openapi",
      defs: {},
    });
    const count = bindReading(router);
    expect((await failure(router.call(old))).code).toBe("STALE_FINGERPRINT");
    const current = pin(router, "weather", "current", { city: "seoul" });
    expect((await failure(router.call(current))).code).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(count.sent).toBe(1);
    expect(fault.hits("/weather/seoul")).toBe(1);
  });

  it("serves no replaced contract: the new input schema and parameters are the ones checked", async () => {
    const fault = await server();
    const router = faultRouter(fault);
    cleanups.push(() => router.close());
    await router.call(pin(router, "weather", "current", { city: "seoul" }));
    router.replaceTool({
      tool: weatherWith((endpoint) => ({
        ...endpoint,
        parameters: [
          ...endpoint.parameters,
          { name: "units", location: "query", required: true, schema: { type: "string" } },
        ],
        inputSchema: {
          type: "object",
          properties: { city: { type: "string", pattern: "^[A-Z]+$" }, units: { type: "string" } },
          required: ["city", "units"],
          additionalProperties: false,
        },
      })),
      source: "meteo",
      sourceKind: "openapi",
      defs: {},
    });
    const count = bindReading(router);
    const missing = await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    expect(missing.code).toBe("MISSING_REQUIRED_ARGUMENT");
    const lower = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul", units: "c" })),
    );
    expect(lower.code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(count.sent).toBe(0);
    const upper = await router.call(pin(router, "weather", "current", { city: "SEOUL", units: "c" }));
    expect(upper.data).toMatchObject({ tempC: 21 });
    expect(count.sent).toBe(1);
  });

  it("serves no re-registration of the same contract objects with other definitions", async () => {
    // One ToolSpec (so the very same frozen endpoint objects) registered twice: its output schema
    // names a shared definition, and only the definitions change.
    const spec = weatherWith((endpoint) => ({ ...endpoint, outputSchema: { $ref: "#/$defs/Reading" } }));
    const reading = (tempC: string) => ({
      Reading: {
        type: "object",
        required: ["city"],
        properties: { city: { type: "string" }, tempC: { type: tempC } },
      },
    });
    const router = SchemaRouter.fromRegistry(
      new Registry([
        registerTool({ tool: spec, source: "meteo", sourceKind: "openapi", defs: reading("number") }),
      ]),
    );
    cleanups.push(() => router.close());
    let count = bindReading(router);
    expect((await router.call(pin(router, "weather", "current", { city: "seoul" }))).data).toMatchObject({
      tempC: 21,
    });
    router.replaceTool({ tool: spec, source: "meteo", sourceKind: "openapi", defs: reading("string") });
    count = bindReading(router);
    const refused = await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    expect(refused.code).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(count.sent).toBe(1);
  });

  it("keeps each router's own policy over one shared registry (the same contract objects)", async () => {
    const fault = await server();
    const registry = new Registry(
      FIXTURE_TOOLS.map((spec) =>
        registerTool({ tool: spec, source: spec.name, sourceKind: "openapi", defs: {} }),
      ),
    );
    const bindings = Object.fromEntries(FIXTURE_TOOLS.map((spec) => [spec.name, { baseUrl: fault.url }]));
    const permissive = SchemaRouter.fromRegistry(registry, {
      bindings,
      policy: new ExecutionPolicy({ allowMutations: true }),
    });
    const strict = SchemaRouter.fromRegistry(registry, { bindings });
    cleanups.push(() => permissive.close());
    cleanups.push(() => strict.close());
    const report = pin(permissive, "weather", "report");
    expect((await permissive.call(report)).attempts).toBe(1);
    const denied = await failure(strict.call(report));
    expect(denied.code).toBe("POLICY_DENIED");
    expect((await permissive.call(report)).attempts).toBe(1);
    expect(fault.hits("/weather/report")).toBe(2);
  });

  it("asks for approval on every call, and a refusal after approvals refuses that call", async () => {
    const fault = await server();
    const verdicts = [true, false, true];
    const asked: number[] = [];
    const router = faultRouter(fault, {
      policy: new ExecutionPolicy({ approval: "all" }),
      approve: () => {
        asked.push(asked.length);
        return verdicts[asked.length - 1]!;
      },
    });
    cleanups.push(() => router.close());
    const call = pin(router, "weather", "current", { city: "seoul" });
    expect((await router.call(call)).attempts).toBe(1);
    expect((await failure(router.call(call))).code).toBe("APPROVAL_DENIED");
    expect((await router.call(call)).attempts).toBe(1);
    expect(asked).toEqual([0, 1, 2]);
    expect(fault.hits("/weather/seoul")).toBe(2);
  });
});
