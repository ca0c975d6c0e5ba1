/**
 * Compiled request paths (runtime/transports/http-route.ts) give exactly what parsing the whole URL
 * gives — the WHATWG URL parser's normalized path and query — for any template text and any argument
 * values, and never a path outside the binding's base path; the fast path skips the parser only
 * where it provably changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CallRefusedError } from "../../../../runtime/errors/errors.js";
import type { EndpointSpec, ParameterSpec } from "../../../../runtime/model/specs.js";
import { type BaseUrl, requestPath } from "../../../../runtime/transports/http/route.js";

const BASE: BaseUrl = { origin: "http://127.0.0.1:8080", basePath: "/api/v2" };

function endpointOf(template: string, names: readonly string[], query: readonly string[]): EndpointSpec {
  const parameters: ParameterSpec[] = [
    ...names.map((name) => ({ name, location: "path" as const, required: true, schema: { type: "string" } })),
    ...query.map((name) => ({
      name: `q_${name}`,
      wireName: name,
      location: "query" as const,
      required: false,
      schema: {},
    })),
  ];
  return {
    name: "op",
    description: "",
    effect: "read",
    inputSchema: { type: "object" },
    outputSchema: {},
    parameters,
    fields: [],
    execution: { kind: "http", method: "get", path: template, successStatus: [200] },
    metadata: {},
  } as unknown as EndpointSpec;
}

/** What the transport sent before routes were compiled: parse the whole URL, confine, serialize. */
function reference(template: string, args: Record<string, unknown>, query: readonly string[]): string {
  const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const given = Object.hasOwn(args, name) ? args[name] : undefined;
    if (given === undefined || given === null)
      throw new CallRefusedError("MISSING_REQUIRED_ARGUMENT", name, { route: template, argument: name });
    return encodeURIComponent(String(given));
  });
  const url = new URL(BASE.origin + BASE.basePath + path);
  if (
    url.origin !== BASE.origin ||
    !(url.pathname === BASE.basePath || url.pathname.startsWith(`${BASE.basePath}/`))
  )
    throw new CallRefusedError("TRANSPORT_REFUSED", "leaves", {});
  for (const name of query) {
    const value = args[`q_${name}`];
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  return url.pathname + url.search;
}

const literal = fc.constantFrom(
  "/items",
  "/a b",
  "/ü",
  "/./x",
  "/../up",
  "/x.",
  "/.",
  "/%2e",
  "/%",
  "/files/%",
  "/v1:",
  "",
  "/",
  "/{",
  "\\y",
  "-admin",
  "x",
  "/items?x=1&",
  "/q?",
  "/h#frag",
);
const value = fc.oneof(
  fc.string(),
  fc.constantFrom(".x", "..x", "x.", "a/b", "%2e%2e", "?q", "#f", "ü", " ", "\\", "2e", "2E", "x"),
);

describe("compiled request paths", () => {
  it("equal the fully parsed URL for any template text and values (or are refused like it)", () => {
    fc.assert(
      fc.property(
        fc.array(literal, { minLength: 1, maxLength: 4 }),
        fc.array(value, { minLength: 3, maxLength: 3 }),
        fc.option(fc.string(), { nil: undefined }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (parts, values, queryValue, slashes) => {
          const names = ["a", "b", "c"].slice(0, Math.max(0, parts.length - 1));
          const template = parts
            .map(
              (part, index) =>
                part + (index < names.length ? `${slashes[index] ? "/" : ""}{${names[index]}}` : ""),
            )
            .join("");
          const args: Record<string, unknown> = {};
          names.forEach((name, index) => {
            args[name] = values[index];
          });
          if (queryValue !== undefined) args.q_filter = queryValue;
          const endpoint = endpointOf(template, names, ["filter"]);
          const refusedValue = names.some((name) => ["", ".", ".."].includes(String(args[name])));
          let expected: string | Error;
          try {
            expected = refusedValue ? new Error("refused") : reference(template, args, ["filter"]);
          } catch (error) {
            expected = error as Error;
          }
          let actual: string | Error;
          try {
            actual = requestPath(BASE, template, endpoint, args, "t.op", new Map());
          } catch (error) {
            actual = error as Error;
          }
          if (typeof expected === "string") expect(actual).toBe(expected);
          else expect(actual).toBeInstanceOf(CallRefusedError);
          if (typeof actual === "string") {
            const pathname = actual.split("?")[0]!;
            expect(pathname.startsWith(`${BASE.basePath}/`) || pathname === BASE.basePath).toBe(true);
          }
        },
      ),
      { numRuns: 4000 },
    );
  });

  it("appends trusted query pairs after the arguments and refuses an argument that would set one", () => {
    const endpoint = endpointOf("/items/{a}", ["a"], ["page", "api_key"]);
    const trusted = new Map([["api_key", "secret"]]);
    expect(requestPath(BASE, "/items/{a}", endpoint, { a: "1", q_page: 2 }, "t.op", trusted)).toBe(
      "/api/v2/items/1?page=2&api_key=secret",
    );
    expect(() =>
      requestPath(BASE, "/items/{a}", endpoint, { a: "1", q_api_key: "x" }, "t.op", trusted),
    ).toThrow(/trusted runtime configuration/);
  });

  it("refuses a missing path argument (MISSING_REQUIRED_ARGUMENT)", () => {
    const endpoint = endpointOf("/items/{a}", ["a"], []);
    expect(() => requestPath(BASE, "/items/{a}", endpoint, {}, "t.op", new Map())).toThrow(/is missing/);
  });
});
