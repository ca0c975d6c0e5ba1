/** MCP tool definitions as untrusted data (buildMcpSource): what is kept, refused and reported. */
import { describe, expect, it } from "vitest";
import { buildMcpSource } from "../../../../compiler/sources/mcp/index.js";
import type { JsonObject } from "../../../../runtime/model/specs.js";
import type { ListedTool } from "../../../../runtime/transports/mcp/list.js";
import { endpointOf, toolOf } from "../../../fixtures/mcp/harness.js";

describe("MCP definitions as untrusted data (buildMcpSource)", () => {
  const facts = {
    execution: { transport: "mcp", server: "stdio", identity: "srv" },
    server: { name: "srv", version: "1" },
  } as const;
  const build = (tools: readonly JsonObject[]) =>
    buildMcpSource("s", { kind: "mcp", stdio: { command: "srv" } }, tools as ListedTool[], facts);
  const point = { type: "object", properties: { x: { type: "number" } } };

  it.each<[string, JsonObject, string]>([
    [
      "a non-root JSON pointer",
      { type: "object", properties: { a: {}, b: { $ref: "#/properties/a" } } },
      "$ref",
    ],
    [
      "a remote reference",
      { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } },
      "$ref",
    ],
    [
      "a reference to a missing definition",
      { type: "object", properties: { a: { $ref: "#/$defs/Nope" } } },
      "$ref",
    ],
    ["$dynamicRef", { type: "object", properties: { a: { $dynamicRef: "#node" } } }, "$ref"],
    ["a nested $id", { type: "object", properties: { a: { $id: "https://example.com/a" } } }, "$ref"],
  ])("reports an input schema with %s as unsupported", (_name, inputSchema, construct) => {
    const result = build([{ name: "t", inputSchema }]);
    expect(result.compatibility).toEqual([
      expect.objectContaining({ pointer: "/tools/t", construct, level: "unsupported" }),
    ]);
    expect(toolOf(result).endpoints).toEqual([]);
    expect(result.defs).toEqual({});
  });

  it.each<[string, JsonObject]>([
    ["no inputSchema", { name: "t" }],
    ["a non-object outputSchema", { name: "t", inputSchema: { type: "object" }, outputSchema: "x" }],
  ])("reports a definition with %s as unsupported", (_name, def) => {
    expect(build([def]).compatibility).toHaveLength(1);
  });

  it("hoists draft-07 definitions and schema-valued properties named like keywords", () => {
    const inputSchema = {
      type: "object",
      properties: { default: { $ref: "#/definitions/P" }, $id: { type: "string" } },
      definitions: { P: point },
    };
    const result = build([{ name: "t", inputSchema }]);
    expect(result.compatibility).toEqual([]);
    const endpoint = endpointOf(toolOf(result), "t");
    expect(endpoint.inputSchema).toEqual({
      type: "object",
      properties: { default: { $ref: "#/$defs/t.input.P" }, $id: { type: "string" } },
    });
    expect(result.defs).toEqual({ "t.input.P": point });
  });

  it("refuses a server that lists a tool name twice", () => {
    const tool = { name: "t", inputSchema: { type: "object" } };
    expect(() => build([tool, tool])).toThrow(expect.objectContaining({ code: "MCP_LIST_FAILED" }));
  });
});
