/** Compiling an MCP server over stdio: paging, parameters and units, effects, task-only tools, remote digests, $defs, environment, refusals. */
import { beforeAll, describe, expect, it } from "vitest";
import type { McpSourceConfig } from "../../../../compiler/config/mcp-source.js";
import { mcpAdapter } from "../../../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import { DefinitionSet, fingerprintTool } from "../../../../runtime/format/fingerprint.js";
import { mcpRemoteDigest } from "../../../../runtime/format/mcp-digest.js";
import {
  compilable,
  endpointOf,
  fixtureTools,
  rejection,
  sourceContext,
  stdio,
  toolOf,
} from "../../../fixtures/mcp/harness.js";
import { FIXTURE_PAGE_SIZE } from "../../../fixtures/mcp/tools.mjs";

describe("MCP compile over stdio", () => {
  let compiled: SourceResult;
  beforeAll(async () => {
    compiled = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
  });

  it("lists every page and compiles one ToolSpec with one endpoint per tool", () => {
    expect(fixtureTools.length).toBeGreaterThan(3 * FIXTURE_PAGE_SIZE);
    const tool = toolOf(compiled);
    expect(tool).toMatchObject({
      name: "fixture",
      namespace: "fixture",
      provider: "schemarouter-fixture",
      accessMode: "mcp",
      remote: true,
      execution: { transport: "mcp", server: "stdio", identity: "node test/fixtures/mcp/stdio-server.mjs" },
    });
    expect(tool.endpoints.map((endpoint) => endpoint.name)).toEqual([...compilable].sort());
    expect(compiled.location).toBe("node test/fixtures/mcp/stdio-server.mjs");
  });

  it("maps parameters, output schemas and fields with x-unit units", () => {
    const tool = toolOf(compiled);
    const weather = endpointOf(tool, "echo_weather");
    expect(weather.parameters).toEqual([
      {
        name: "city",
        location: "argument",
        required: true,
        schema: { type: "string", description: "City name" },
        description: "City name",
      },
    ]);
    expect(weather.outputSchema).toEqual(fixtureTools.find((t) => t.name === "echo_weather")?.outputSchema);
    expect(weather.execution).toEqual({ kind: "mcp", toolName: "echo_weather" });
    expect(weather.fields.map((f) => [f.id, f.unit])).toEqual([
      ["city", undefined],
      ["temperature", "Cel"],
      ["wind_speed", "m/s"],
    ]);
    const plain = endpointOf(tool, "no_schema");
    expect(plain.outputSchema).toEqual({});
    expect(plain.fields).toEqual([]);
    expect(endpointOf(tool, "nested").fields.map((f) => f.id)).toEqual(["station", "readings"]);
    expect(weather.metadata).toMatchObject({ untrusted: true, annotationHints: { readOnlyHint: true } });
  });

  it("leaves every tool unclassified and only suggests what annotations say", () => {
    expect(new Set(toolOf(compiled).endpoints.map((e) => e.effect))).toEqual(new Set(["unclassified"]));
    expect(compiled.notes).toContain(
      "tool echo_weather says readOnlyHint=true; classify it in effects to trust it",
    );
    expect(compiled.notes).toContain(
      "tool fails says readOnlyHint=false, destructiveHint=false; classify it in effects to trust it",
    );
  });

  it("classifies tools only through local effects", async () => {
    const result = await mcpAdapter.resolve(
      "fixture",
      stdio({ effects: { echo_weather: "read", fails: "destructive", control: "write" } }),
      sourceContext(),
    );
    const tool = toolOf(result);
    expect(endpointOf(tool, "echo_weather").effect).toBe("read");
    expect(endpointOf(tool, "fails").effect).toBe("destructive");
    expect(endpointOf(tool, "control").effect).toBe("write");
    expect(endpointOf(tool, "no_schema").effect).toBe("unclassified");
    expect(result.notes).toContain(
      'tool fails says readOnlyHint=false, destructiveHint=false but effects classifies it as "destructive"; the local classification applies',
    );
    expect(result.notes?.some((note) => note.startsWith("tool echo_weather"))).toBe(false);
  });

  it("reports task-only tools as unsupported instead of compiling them", () => {
    expect(compiled.compatibility).toContainEqual(
      expect.objectContaining({
        pointer: "/tools/task_only",
        construct: "execution.taskSupport",
        level: "unsupported",
      }),
    );
    expect(toolOf(compiled).endpoints.some((e) => e.name === "task_only")).toBe(false);
  });

  it("pins a remote digest for every listed tool (compiled or not), deterministically", async () => {
    const digests = compiled.remoteDigests?.fixture ?? {};
    expect(Object.keys(digests).sort()).toEqual(fixtureTools.map((t) => t.name).sort());
    for (const def of fixtureTools) {
      expect(digests[def.name as string]).toBe(mcpRemoteDigest(def));
    }
    const again = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
    expect(again).toEqual(compiled);
  });

  it("hoists a tool's local $defs into shared definitions and keeps the raw definition", () => {
    const tool = toolOf(compiled);
    const refs = endpointOf(tool, "with_refs");
    expect(refs.parameters[0]?.schema).toEqual({ $ref: "#/$defs/with_refs.input.Point" });
    expect(compiled.defs["with_refs.input.Point"]).toMatchObject({ required: ["x", "y"] });
    expect(refs.inputSchema).not.toHaveProperty("$defs");
    expect(refs.metadata?.definition).toMatchObject({
      inputSchema: { properties: { point: { $ref: "#/$defs/Point" } } },
    });
    expect(() => fingerprintTool(tool, new DefinitionSet(compiled.defs))).not.toThrow();
  });

  it("adds trusted result fields for a tool without outputSchema, leaving its schemas alone", async () => {
    const results = { no_schema: { fields: [{ id: "text", path: ["0", "text"], semanticId: "echo:text" }] } };
    const tool = toolOf(await mcpAdapter.resolve("fixture", stdio({ results }), sourceContext()));
    const plain = endpointOf(tool, "no_schema");
    expect(plain.fields).toEqual([
      { id: "text", path: ["0", "text"], semanticId: "echo:text", overlay: true },
    ]);
    expect(plain.outputSchema).toEqual({});
    expect(plain.execution).toEqual(endpointOf(toolOf(compiled), "no_schema").execution);
  });

  it("passes only allowlisted environment variables to the server (not even PATH)", async () => {
    const env = { FIXTURE_VISIBLE: "yes", FIXTURE_HIDDEN: "no", PATH: process.env.PATH, HOME: "/home/x" };
    const result = await mcpAdapter.resolve(
      "fixture",
      stdio({}, ["FIXTURE_VISIBLE", "FIXTURE_UNSET"]),
      sourceContext(env),
    );
    expect(toolOf(result).metadata?.instructions).toBe("env: FIXTURE_VISIBLE");
    expect(JSON.stringify(result)).not.toContain('"yes"');
  });

  it.each<[string, McpSourceConfig, string]>([
    ["stdio and url", { ...stdio(), url: "https://example.invalid/mcp" }, "MCP_CONFIG_INVALID"],
    ["neither stdio nor url", { kind: "mcp" }, "MCP_CONFIG_INVALID"],
    ["headers on stdio", stdio({ headers: { authorization: { env: "TOKEN" } } }), "MCP_CONFIG_INVALID"],
    ["effects for an unlisted tool", stdio({ effects: { ghost: "read" } }), "MCP_CONFIG_INVALID"],
    [
      "a result field that collides with a derived field",
      stdio({ results: { echo_weather: { fields: [{ id: "temperature", path: ["temperature"] }] } } }),
      "MCP_CONFIG_INVALID",
    ],
    ["an invalid env allowlist name", stdio({}, ["NOT-A-NAME"]), "MCP_CONFIG_INVALID"],
    [
      "a command that does not exist",
      { kind: "mcp", stdio: { command: "schemarouter-no-such-command" } },
      "MCP_CONNECT_FAILED",
    ],
  ])("refuses %s", async (_name, config, code) => {
    expect((await rejection(mcpAdapter.resolve("fixture", config, sourceContext()))).code).toBe(code);
  });
});
