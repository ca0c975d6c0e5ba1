/**
 * Raw outputs are validated against the locked output schema before projection
 * (docs/runtime/execution-boundary.md): numbers JSON cannot carry (an overflowing literal becomes
 * Infinity when parsed) never pass, at any depth.
 */
import { describe, expect, it } from "vitest";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { startServer } from "../../helpers/http-server.js";
import { httpTool } from "../../helpers/http-tool.js";

const cleanups = cleanupAfterEach();

async function answering(text: string) {
  const server = await startServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(text);
  });
  cleanups.push(() => server.close());
  return server;
}

describe("non-finite numbers", () => {
  it.each([
    [
      "an integer that overflowed",
      '{"count": 1e999}',
      { type: "object", properties: { count: { type: "integer" } } },
      "/count",
    ],
    [
      "a negative number that overflowed",
      '{"count": -1e999}',
      { type: "object", properties: { count: { type: "number" } } },
      "/count",
    ],
    ["an untyped nested value", '{"a": [{"b": 1}, {"b": 9e999}]}', { type: "object" }, "/a/1/b"],
    ["a root number", "1e400", { type: "number" }, ""],
  ])("refuses %s with OUTPUT_SCHEMA_VIOLATION", async (_name, body, outputSchema, pointer) => {
    const server = await answering(body);
    const { router, call } = httpTool(server.url, cleanups, {
      endpoint: { outputSchema, fields: [] },
    });
    await expect(router.call(call())).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
      details: { violations: [expect.objectContaining({ pointer })] },
    });
  });

  it.each([
    ["objects", `${'{"a":'.repeat(600)}1${"}".repeat(600)}`, { type: "object" }],
    ["arrays", `${"[".repeat(600)}1${"]".repeat(600)}`, { type: "array" }],
  ])(
    "refuses %s nested deeper than 512 levels with OUTPUT_SCHEMA_VIOLATION (maxDepth)",
    async (_name, body, outputSchema) => {
      const server = await answering(body);
      const { router, call } = httpTool(server.url, cleanups, { endpoint: { outputSchema, fields: [] } });
      await expect(router.call(call())).rejects.toMatchObject({
        code: "OUTPUT_SCHEMA_VIOLATION",
        details: { violations: [expect.objectContaining({ keyword: "maxDepth" })] },
      });
    },
  );

  it("passes large finite numbers", async () => {
    const server = await answering('{"count": 1.7976931348623157e308}');
    const { router, call } = httpTool(server.url, cleanups, {
      endpoint: {
        outputSchema: { type: "object", properties: { count: { type: "number" } } },
        fields: [{ id: "count", path: ["count"] }],
      },
    });
    const result = await router.call(call({}, ["count"]));
    expect(result.data).toEqual({ count: Number.MAX_VALUE });
  });
});
