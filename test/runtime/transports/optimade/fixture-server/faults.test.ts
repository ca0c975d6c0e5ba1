/** The fixture provider's fault injection and its request log. */
import { describe, expect, it } from "vitest";
import { expectError, fixtureProvider, query } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

describe("fault injection and the request log", () => {
  it("answers injected statuses for the next requests, then recovers", async () => {
    provider.server.clearRequests();
    provider.server.failNext(429, 2, { retryAfter: 1 });
    const first = await v1("/info");
    expectError(first, 429, "Too Many Requests");
    expect(first.headers.get("retry-after")).toBe("1");
    expectError(await v1("/structures"), 429, "Too Many Requests");
    provider.server.failNext(503);
    expectError(await v1("/structures"), 503, "Service Unavailable");
    expect((await v1(`/structures${query({ filter: 'elements HAS "Si"' })}`)).status).toBe(200);
    expect(provider.server.requests.map((request) => request.status)).toEqual([429, 429, 503, 200]);
    expect(provider.server.requests[3]).toMatchObject({
      method: "GET",
      path: "/v1/structures",
      query: { filter: 'elements HAS "Si"' },
      search: "?filter=elements+HAS+%22Si%22",
    });
  });
});
