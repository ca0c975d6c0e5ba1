/** Base URL confinement: every path argument stays inside one segment under the base path. */
import { describe, expect, it } from "vitest";
import { BASE_PATH, echoItem, httpHarness, refusal } from "./harness.js";

const harness = httpHarness();

describe("base URL confinement", () => {
  const cases: [string, string, string][] = [
    ["a plain value", "abc", `${BASE_PATH}/items/abc`],
    ["an encoded slash", "a/b", `${BASE_PATH}/items/a%2Fb`],
    ["a traversal with slashes", "../../etc/passwd", `${BASE_PATH}/items/..%2F..%2Fetc%2Fpasswd`],
    ["percent-encoded dots", "%2e%2e", `${BASE_PATH}/items/%252e%252e`],
    ["mixed encoded dots", ".%2E", `${BASE_PATH}/items/.%252E`],
    ["an encoded slash sequence", "..%2F..%2F", `${BASE_PATH}/items/..%252F..%252F`],
    ["a query and fragment", "x?admin=1#frag", `${BASE_PATH}/items/x%3Fadmin%3D1%23frag`],
    ["a backslash traversal", "..\\..\\etc", `${BASE_PATH}/items/..%5C..%5Cetc`],
  ];
  it.each(cases)("keeps %s inside one path segment under the base path", async (_name, id, wire) => {
    const h = await harness(echoItem);
    await h.call("getItem", { id });
    expect(h.server.requests.map((r) => r.url)).toEqual([wire]);
  });

  const dotSegments: [string, string, Record<string, string>][] = [
    ["getItem", "'..' as the last segment", { id: ".." }],
    ["getItem", "'.' as the last segment", { id: "." }],
    ["getPair", "'..' climbing out of the base path", { a: "..", b: "x" }],
    ["getPair", "'..' climbing to a sibling endpoint", { a: "x", b: ".." }],
    ["getItem", "an empty path segment", { id: "" }],
  ];
  it.each(dotSegments)("%s: refuses %s (TRANSPORT_REFUSED) and sends nothing", async (name, _what, args) => {
    const h = await harness(echoItem);
    const error = await refusal(h.call(name, args));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(h.server.requests).toEqual([]);
  });
});
