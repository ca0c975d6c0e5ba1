/**
 * A budgeted parallel batch stops admitting when the budget refuses, lets the admitted calls finish,
 * and reports their results and the refused remainder: exactly maxCalls requests reach a real
 * node:http server, every run (docs/runtime/governed-execution.md).
 */
import { describe, expect, it } from "vitest";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { partialBatchOf } from "../../../runtime/governed/partial.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { sendJson, startServer } from "../../helpers/http-server.js";
import { httpTool } from "../../helpers/http-tool.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

describe("invokeBatch with a call budget", () => {
  it("executes exactly maxCalls of 600 calls at concurrency 32, five runs in a row", async () => {
    let served = 0;
    const server = await startServer((_request, response) => {
      served++;
      // A little latency keeps many calls in flight when the budget runs out.
      setTimeout(() => sendJson(response, 200, { n: served }), 2);
    });
    cleanups.push(() => server.close());
    const tool = httpTool(server.url, cleanups);
    const calls = Array.from({ length: 600 }, () => tool.call());
    for (const maxCalls of [37, 100, 1, 250, 599]) {
      served = 0;
      const error = await failure(
        tool.router.invokeBatch(calls, { concurrency: 32, budget: new ExecutionBudget({ maxCalls }) }),
      );
      expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "calls", max: maxCalls } });
      const partial = partialBatchOf(error)!;
      expect(served).toBe(maxCalls);
      expect(partial.results.filter((result) => result !== undefined)).toHaveLength(maxCalls);
      expect(partial.refused).toHaveLength(600 - maxCalls);
      for (const index of partial.refused) expect(partial.results[index]).toBeUndefined();
      expect(partial.results.filter(Boolean).every((result) => result?.data !== undefined)).toBe(true);
    }
  });

  it("a budget that covers the batch returns every result, as before", async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, {}));
    cleanups.push(() => server.close());
    const tool = httpTool(server.url, cleanups);
    const results = await tool.router.invokeBatch(
      Array.from({ length: 40 }, () => tool.call()),
      { concurrency: 32, budget: new ExecutionBudget({ maxCalls: 40 }) },
    );
    expect(results).toHaveLength(40);
    expect(server.requests).toHaveLength(40);
  });

  it("any other error is not a partial batch", () => {
    expect(partialBatchOf(new Error("x"))).toBeUndefined();
    expect(partialBatchOf(undefined)).toBeUndefined();
  });
});
