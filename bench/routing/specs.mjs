/**
 * Plain-JS ToolSpec builders and the seeded PRNG for the routing benchmarks, mirroring the helpers of
 * test/fixtures/catalogs.ts (benchmarks run under plain node against runtime/dist, without a TS loader).
 */
import { Registry, registerTool } from "../../runtime/dist/load/registry.js";

/** Deterministic PRNG (mulberry32), identical to the test fixture's. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function field(id, extra = {}) {
  return { id, path: [id], schema: { type: "number" }, datatype: "number", ...extra };
}

export function param(name, required = false, extra = {}) {
  return { name, location: "argument", required, schema: { type: "string" }, ...extra };
}

export function endpoint(name, extra = {}) {
  const parameters = extra.parameters ?? [];
  const properties = {};
  for (const parameter of parameters) properties[parameter.name] = { type: "string" };
  return {
    name,
    description: extra.description ?? `${name} endpoint`,
    effect: extra.effect ?? "read",
    parameters,
    inputSchema: extra.inputSchema ?? {
      type: "object",
      properties,
      required: parameters.filter((p) => p.required).map((p) => p.name),
    },
    outputSchema: extra.outputSchema ?? { type: "object" },
    fields: extra.fields ?? [],
    execution: { kind: "local", function: name },
  };
}

export function tool(name, endpoints, extra = {}) {
  return {
    name,
    namespace: extra.namespace ?? name,
    description: extra.description ?? `${name} tool`,
    provider: extra.provider ?? name,
    accessMode: extra.accessMode ?? "local",
    remote: extra.remote ?? false,
    execution: { transport: "local", module: name },
    endpoints,
  };
}

/** A registry of hand-written tools; `kinds` maps tool name → source kind (default `local`). */
export function registryOf(tools, kinds = {}) {
  return new Registry(
    tools.map((spec) =>
      registerTool({ tool: spec, source: spec.name, sourceKind: kinds[spec.name] ?? "local", defs: {} }),
    ),
  );
}
