/**
 * The config validator the build precompiles (compiler/dist/config/config-validator.cjs, ajv standalone code
 * written by scripts/write-config-schema.mjs) answers exactly as ajv compiling CONFIG_SCHEMA at run
 * time: same verdict and same first violation, for valid configs and for each kind of mistake. The CLI
 * uses the precompiled one, so a no-op compile never loads ajv's compiler.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const BUILT = new URL("../../../compiler/dist/config/config.js", import.meta.url);
const root = JSON.parse(
  readFileSync(new URL("../../../schemarouter.config.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

const CASES: ReadonlyArray<readonly [string, unknown]> = [
  ["the repository's own config", root],
  ["a minimal OpenAPI source", { sources: { api: { kind: "openapi", location: "openapi.yaml" } } }],
  [
    "an MCP stdio source",
    { sources: { memory: { kind: "mcp", stdio: { command: "node", args: ["x.js"], env: ["HOME"] } } } },
  ],
  ["no sources", {}],
  ["an unknown top-level key", { sources: {}, extra: true }],
  [
    "a source name that breaks the pattern",
    { sources: { "Bad-Name": { kind: "openapi", location: "a.json" } } },
  ],
  ["an unknown source kind", { sources: { api: { kind: "soap", location: "x" } } }],
  ["a wrong type", { outDir: 7, sources: {} }],
  [
    "an MCP URL with credentials",
    { sources: { m: { kind: "mcp", url: "https://user:pw@example.test/mcp" } } },
  ],
  ["an OPTIMADE source without a base URL", { sources: { o: { kind: "optimade" } } }],
  [
    "a field overlay with a bad path",
    {
      sources: {
        api: {
          kind: "openapi",
          location: "a",
          overlays: { endpoints: { op: { fields: [{ id: "x", path: "no" }] } } },
        },
      },
    },
  ],
  ["not an object", [1, 2]],
];

describe("the precompiled config validator", () => {
  it("is built beside the compiler", () => {
    expect(existsSync(new URL("../../../compiler/dist/config/config-validator.cjs", import.meta.url))).toBe(
      true,
    );
  });

  it.each(CASES)("agrees with ajv at run time on %s", async (_name, config) => {
    const { configViolations } = (await import(
      BUILT.href
    )) as typeof import("../../../compiler/config/config.js");
    const built = configViolations(config, true);
    const compiled = configViolations(config, false);
    expect(built).toEqual(compiled);
  });

  it("refuses what it should (the corpus is not all valid)", async () => {
    const { configViolations } = (await import(
      BUILT.href
    )) as typeof import("../../../compiler/config/config.js");
    const verdicts = CASES.map(([, config]) => configViolations(config, true).length === 0);
    expect(verdicts.slice(0, 3)).toEqual([true, true, true]);
    expect(verdicts.slice(3).every((valid) => !valid)).toBe(true);
  });
});
