/**
 * Limits are validated where they are configured: 0 (where a limit must be positive), −1, 1.5, NaN
 * and strings are RUN_CONFIG_INVALID naming the option, never a TypeError or a silent default
 * (docs/common-mistakes.md).
 */
import { describe, expect, it } from "vitest";
import { AvailabilityMemory } from "../../../runtime/governed/availability.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { resolveRunConfig } from "../../../runtime/governed/config.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";

const BAD = [-1, 1.5, Number.NaN, "3", Number.POSITIVE_INFINITY] as const;
const refused = (option: string) =>
  expect.objectContaining({ code: "RUN_CONFIG_INVALID", details: expect.objectContaining({ option }) });

describe("limit values", () => {
  it.each(BAD)("ExecutionBudget refuses %s for every count", (value) => {
    for (const option of ["maxCalls", "maxAttempts", "maxRemoteAttempts", "maxWallClockMs", "maxCost"]) {
      if (option === "maxCost" && value === 1.5) continue; // a cost may be fractional
      expect(() => new ExecutionBudget({ [option]: value } as never)).toThrow(refused(option));
    }
  });

  it("a zero call budget is a valid budget (nothing may run)", () => {
    expect(new ExecutionBudget({ maxCalls: 0 }).maxCalls).toBe(0);
  });

  it.each([0, ...BAD])("RetryPolicy refuses %s attempts", (value) => {
    expect(() => new RetryPolicy({ maxAttempts: value } as never)).toThrow(refused("maxAttempts"));
  });

  it.each([0, ...BAD])("RunConfig refuses a concurrency of %s", (value) => {
    expect(() => resolveRunConfig({ concurrency: value } as never)).toThrow(refused("concurrency"));
  });

  it.each(BAD)("AvailabilityMemory refuses a cooldown of %s", (value) => {
    expect(() => new AvailabilityMemory({ cooldownMs: value } as never)).toThrow(refused("cooldownMs"));
  });
});
