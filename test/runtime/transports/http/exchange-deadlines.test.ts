/**
 * The HTTP transports' one deadline timer per invoker (docs/runtime/transports.md): every exchange is
 * expired no earlier than `timeoutMs` after it started and soon after, an exchange that finished first
 * never is, and an exchange whose abort throws does not keep the later ones from timing out.
 */
import { describe, expect, it } from "vitest";
import { ExchangeDeadlines, type Expiring } from "../../../../runtime/transports/http/exchange-deadlines.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exchangeAt(started: number, expired: Map<string, number>, name: string, fails = false): Expiring {
  return {
    deadline: 0,
    expire() {
      expired.set(name, performance.now() - started);
      if (fails) throw new Error("abort failed");
    },
  };
}

describe("ExchangeDeadlines", () => {
  it("expires each exchange timeoutMs after its own start, and never one that finished", async () => {
    const deadlines = new ExchangeDeadlines(60);
    const expired = new Map<string, number>();
    const first = performance.now();
    deadlines.add(exchangeAt(first, expired, "first", true));
    const finished = exchangeAt(first, expired, "finished");
    deadlines.add(finished);
    await sleep(30);
    const secondStart = performance.now();
    deadlines.add(exchangeAt(secondStart, expired, "second"));
    deadlines.delete(finished);
    expect(deadlines.size).toBe(2);
    await expect.poll(() => expired.size, { timeout: 2_000, interval: 5 }).toBe(2);
    expect(expired.has("finished")).toBe(false);
    // Never early (a timer's millisecond clock may round by one), and not long after.
    expect(expired.get("first")).toBeGreaterThanOrEqual(59);
    expect(expired.get("second")).toBeGreaterThanOrEqual(59);
    expect(expired.get("second")).toBeLessThan(1_000);
    expect(deadlines.size).toBe(0);
  });

  it("re-arms for exchanges added after the queue went idle", async () => {
    const deadlines = new ExchangeDeadlines(20);
    const expired = new Map<string, number>();
    const done = exchangeAt(performance.now(), expired, "done");
    deadlines.add(done);
    deadlines.delete(done);
    await sleep(40);
    const started = performance.now();
    deadlines.add(exchangeAt(started, expired, "late"));
    await expect.poll(() => expired.has("late"), { timeout: 2_000, interval: 5 }).toBe(true);
    expect(expired.get("late")).toBeGreaterThanOrEqual(19);
    expect(expired.has("done")).toBe(false);
  });
});
