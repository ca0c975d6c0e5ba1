/** The weather catalog the planner tests plan over, and small assertions on plans and refusals. */
import { expect } from "vitest";
import type { EndpointSpec, ToolSpec } from "../../../runtime/model/specs.js";
import type { ExecutionPlan } from "../../../runtime/planner/index.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";

export const text = { schema: { type: "string" }, datatype: "string" } as const;

export async function codeOfAsync(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

export const observations = endpoint("observations", {
  description: "Current weather observations for a city",
  parameters: [param("city", true), param("date")],
  fields: [
    field("station", { identifier: true, ...text }),
    field("temperature", {
      unit: "degC",
      semanticId: "wx:air_temperature",
      aliases: ["temp"],
      provenance: "met",
      license: "OGL",
    }),
    field("humidity", { unit: "%", semanticId: "wx:relative_humidity", provenance: "met", license: "OGL" }),
    field("wind_speed", {
      unit: "m/s",
      semanticId: "wx:wind_speed",
      path: ["wind", "speed"],
      provenance: "met",
    }),
    field("summary", { ...text, provenance: "met", license: "OGL" }),
  ],
});

export const single = (spec: EndpointSpec, extra: Partial<ToolSpec> = {}) =>
  registryOf([tool("wx", [spec], extra)]);

export function only(p: ExecutionPlan) {
  expect(p.calls).toHaveLength(1);
  return { call: p.calls[0]!, why: p.explanations[0]! };
}
