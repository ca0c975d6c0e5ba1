/**
 * Trusted credentials never go over plain http to a host that is not loopback unless local code opts in
 * (docs/runtime/transports.md).
 */
import { describe, expect, it } from "vitest";
import { createHttpInvoker } from "../../../runtime/transports/http/transport.js";
import { createOptimadeInvoker } from "../../../runtime/transports/optimade/transport.js";

describe("plaintext credentials", () => {
  it.each([
    ["an Authorization header", { headers: { Authorization: "Bearer T" } }, /trusted headers/],
    ["a credential query parameter", { query: { api_key: "K" } }, /trusted query parameters/],
  ])("an HTTP binding to a remote http:// URL with %s is refused", (_name, options, message) => {
    expect(() => createHttpInvoker({ baseUrl: "http://api.example.com/v1", ...options })).toThrow(message);
    expect(() => createHttpInvoker({ baseUrl: "http://10.1.2.3:8080", ...options })).toThrow(
      /use https, or set allowPlaintextCredentials: true/,
    );
  });

  it("the same binding is accepted over https, on loopback, without credentials, or with the opt-in", () => {
    const headers = { authorization: "Bearer T" };
    expect(() => createHttpInvoker({ baseUrl: "https://api.example.com", headers })).not.toThrow();
    for (const baseUrl of ["http://127.0.0.1:9", "http://localhost:9", "http://[::1]:9"])
      expect(() => createHttpInvoker({ baseUrl, headers })).not.toThrow();
    expect(() => createHttpInvoker({ baseUrl: "http://api.example.com" })).not.toThrow();
    expect(() =>
      createHttpInvoker({ baseUrl: "http://api.example.com", headers, allowPlaintextCredentials: true }),
    ).not.toThrow();
  });

  it("an OPTIMADE binding with headers to a remote http:// URL is refused unless opted in", () => {
    const headers = { "x-api-key": "K" };
    expect(() => createOptimadeInvoker({ baseUrl: "http://optimade.example/v1", headers })).toThrow(
      /OPTIMADE binding: .*plain http/,
    );
    expect(() =>
      createOptimadeInvoker({
        baseUrl: "http://optimade.example/v1",
        headers,
        allowPlaintextCredentials: true,
      }),
    ).not.toThrow();
  });
});
