/**
 * The session budget (all limits or none, the router's BUDGET_EXCEEDED) and the concurrency bound
 * (arrival order, SERVE_BUSY past the queue, cancelled waiters leave it).
 */
import { describe, expect, it } from "vitest";
import { Limiter } from "../../../runtime/serve/limiter.js";
import { SessionBudget } from "../../../runtime/serve/session-budget.js";

describe("SessionBudget", () => {
  it("counts a call against every limit or none", () => {
    const budget = new SessionBudget({ maxCalls: 3, maxRemoteCalls: 1, toolQuotas: { gh: 2 } });
    budget.admit({ route: "gh.get", tool: "gh", remote: true });
    expect(() => budget.admit({ route: "gh.list", tool: "gh", remote: true })).toThrow(
      expect.objectContaining({
        code: "BUDGET_EXCEEDED",
        details: expect.objectContaining({ limit: "remoteAttempts" }),
      }),
    );
    budget.admit({ route: "gh.local", tool: "gh", remote: false });
    expect(() => budget.admit({ route: "gh.local", tool: "gh", remote: false })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ limit: "toolQuota", tool: "gh" }) }),
    );
    budget.admit({ route: "pets.get", tool: "pets", remote: false });
    expect(() => budget.admit({ route: "pets.get", tool: "pets", remote: false })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ limit: "calls", max: 3, used: 3 }) }),
    );
    // Refused calls consumed nothing.
    expect(budget.usage()).toEqual({ calls: 3, remoteCalls: 1, perTool: { gh: 2, pets: 1 } });
  });
});

describe("Limiter", () => {
  it("runs at most `limit` at once, in arrival order, and refuses past the queue", async () => {
    const limiter = new Limiter(1, 2);
    const order: number[] = [];
    const first = await limiter.acquire();
    const second = limiter.acquire().then((free) => {
      order.push(2);
      return free;
    });
    const third = limiter.acquire().then((free) => {
      order.push(3);
      return free;
    });
    await expect(limiter.acquire()).rejects.toMatchObject({
      code: "SERVE_BUSY",
      details: { limit: 1, queued: 2 },
    });
    expect(limiter.waiting).toBe(2);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual([2, 3]);
    expect(limiter.running).toBe(0);
  });

  it("drops a waiter whose request was cancelled", async () => {
    const limiter = new Limiter(1, 5);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    expect(limiter.waiting).toBe(0);
    held();
    held();
    expect(limiter.running).toBe(0);
  });
});
