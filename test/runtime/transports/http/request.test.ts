/** What the HTTP transport sends: query, header and body serialization, and trusted headers only from local config. */
import { describe, expect, it } from "vitest";
import { createHttpInvoker } from "../../../../runtime/transports/http/transport.js";
import { sendJson } from "../../../helpers/http-server.js";
import { BASE_PATH, echoItem, httpHarness, refusal } from "./harness.js";

const harness = httpHarness();

describe("wire serialization", () => {
  it("repeats array query parameters, uses wire names, and sends header parameters", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, [{ id: "a", score: 1 }]));
    const data = await h.call("search", { q: "x y&z", tags: ["a", "b,c"], limit: 3, trace: "t-1" });
    expect(data).toEqual([{ id: "a", score: 1 }]);
    const [request] = h.server.requests;
    expect(request?.url).toBe(`${BASE_PATH}/search?q=x+y%26z&tag=a&tag=b%2Cc&limit=3`);
    expect(request?.headers["x-trace"]).toBe("t-1");
    expect(request?.headers.accept).toBe("application/json");
  });

  it("flattens a properties-mode JSON body using wire names", async () => {
    const h = await harness((_request, response, body) =>
      sendJson(response, 200, { id: "1", name: JSON.parse(body).name, count: 2 }),
    );
    const data = await h.call("createItem", { name: "widget", sizeKb: 12 }, ["name"]);
    expect(data).toEqual({ name: "widget" });
    const [request] = h.server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ name: "widget", "size-kb": 12 });
  });

  it("sends a value-mode body as the whole JSON value", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, { ok: true }));
    await h.call("bulk", { body: [3, 1, 2] });
    expect(JSON.parse(h.server.requests[0]?.body ?? "")).toEqual([3, 1, 2]);
  });
});

describe("trusted headers", () => {
  const trusted = { Authorization: "Bearer api-secret", "X-Tenant": "acme" };

  it("injects trusted headers on every request", async () => {
    const h = await harness(
      (request, response) =>
        request.url?.includes("/search") ? sendJson(response, 200, []) : echoItem(request, response, ""),
      { headers: trusted },
    );
    await h.call("getItem", { id: "1" });
    await h.call("search", { trace: "t" });
    expect(h.server.requests).toHaveLength(2);
    for (const request of h.server.requests) {
      expect(request.headers.authorization).toBe("Bearer api-secret");
      expect(request.headers["x-tenant"]).toBe("acme");
    }
  });

  const refused: [string, Record<string, string>][] = [
    ["a trusted header (X-Tenant)", { tenant: "evil" }],
    ["Authorization", { auth: "Bearer stolen" }],
    ["Cookie", { cookie: "session=1" }],
    ["Host", { hostname: "evil.example" }],
    ["a header value with CR/LF", { crlf: "a\r\nX-Injected: 1" }],
  ];
  it.each(refused)("refuses an argument for %s (TRANSPORT_REFUSED) before sending", async (_name, args) => {
    const h = await harness(echoItem, { headers: trusted });
    const error = await refusal(h.call("search", args));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(h.server.requests).toEqual([]);
  });

  it.each([
    ["credentials", "http://user:pw@127.0.0.1:1/api"],
    ["a query string", "http://127.0.0.1:1/api?key=1"],
    ["a fragment", "http://127.0.0.1:1/api#x"],
    ["another scheme", "ftp://127.0.0.1/api"],
    ["a relative URL", "/api/v1"],
  ])("refuses a base URL with %s when binding (BINDING_INVALID)", (_name, baseUrl) => {
    expect(() => createHttpInvoker({ baseUrl })).toThrow(
      expect.objectContaining({ code: "BINDING_INVALID", details: { key: "baseUrl" } }),
    );
  });

  it.each([
    ["a CR/LF value", { "x-key": "a\r\nx-injected: 1" }],
    ["a NUL value", { "x-key": "a\u0000" }],
  ])("refuses a trusted header with %s when binding (BINDING_INVALID)", (_name, headers) => {
    expect(() => createHttpInvoker({ baseUrl: "http://127.0.0.1:1", headers })).toThrow(
      expect.objectContaining({ code: "BINDING_INVALID", details: { key: "headers" } }),
    );
  });

  it("treats a header named like an Object.prototype member as an ordinary header", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, []), { headers: trusted });
    await h.call("search", { ctor: "c" });
    expect(h.server.requests[0]?.headers.constructor).toBe("c");
  });
});
