/**
 * The differential test of binding types against json-schema-to-typescript: the bindings use the
 * project's own emitter (compiler/emit/schema-types.ts) rather than that library, and this test keeps
 * the choice honest. Each document of the sample is compiled; every shared definition and endpoint
 * input and output is typed by both emitters and compared by mutual assignability under tsc; every
 * difference must have a known reason (reasons.ts) and be listed, with it, in the committed
 * json-schema-to-typescript-differences.md, which must list nothing else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile as jsonSchemaToTypescript } from "json-schema-to-typescript";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveSource } from "../../../../compiler/compile/compile.js";
import { emitArtifact } from "../../../../compiler/emit/artifact.js";
import { emitTypes } from "../../../../compiler/emit/types.js";
import type { JsonSchema } from "../../../../runtime/model/specs.js";
import { REPO_ROOT } from "../../../helpers/project.js";
import { checkPairs } from "./assignability.js";
import { type DocumentResult, differential } from "./differential.js";
import { SAMPLE } from "./documents.js";
import { contractsOf } from "./pairs.js";
import { renderReport } from "./report.js";
import { OPTIONS } from "./theirs.js";

const DIFFERENCES = join(import.meta.dirname, "..", "json-schema-to-typescript-differences.md");
const results = new Map<string, DocumentResult & { readonly expected: number }>();

beforeAll(async () => {
  for (const document of SAMPLE) {
    const resolved = await resolveSource(
      document.name,
      { kind: "openapi", location: document.location },
      { cwd: REPO_ROOT, env: {}, allowInsecureHttp: false },
    );
    const contracts = contractsOf(emitArtifact(document.name, "openapi", resolved).artifact);
    const expected = Object.keys(contracts.defs).length + 2 * contracts.endpoints.length;
    results.set(document.name, { ...(await differential(contracts)), expected });
  }
}, 300_000);

describe("binding types against json-schema-to-typescript", () => {
  it("compares every shared definition and every endpoint input and output of each document", () => {
    for (const document of SAMPLE) {
      const result = results.get(document.name)!;
      expect(result.compared, document.name).toBe(result.expected);
      expect(result.compared, document.name).toBeGreaterThan(10);
    }
  });

  it("finds a known reason for every difference", () => {
    const unexplained = SAMPLE.flatMap((document) =>
      results
        .get(document.name)!
        .differences.filter((difference) => difference.reasons.length === 0)
        .map((difference) => `${document.name}: ${difference.key} (${difference.relation})`),
    );
    expect(unexplained).toEqual([]);
  });

  it("lists every difference, and only those, in json-schema-to-typescript-differences.md", async () => {
    const version = (pkg: string) =>
      (
        JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
    const report = renderReport({
      documents: SAMPLE.map((document) => ({ ...document, result: results.get(document.name)! })),
      versions: { jsonSchemaToTypescript: version("json-schema-to-typescript"), typescript: ts.version },
    });
    await expect(report).toMatchFileSnapshot(DIFFERENCES);
  });

  it("json-schema-to-typescript drops a referenced definition's properties next to sibling properties; the bindings keep both", async () => {
    const pet = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
    const input: JsonSchema = {
      $ref: "#/$defs/pet",
      properties: { extra: { type: "string" } },
      required: ["extra"],
    };
    const ours = emitTypes({ pet }, [
      { input, output: true, inputName: "WithSiblings", outputName: "Unused" },
    ]);
    expect(ours).toContain("export type WithSiblings = (Pet & {");
    const theirs = await jsonSchemaToTypescript(
      {
        type: "object",
        additionalProperties: false,
        required: ["withSiblings"],
        properties: { withSiblings: input },
        $defs: { pet },
      } as unknown as Parameters<typeof jsonSchemaToTypescript>[0],
      "Root",
      OPTIONS,
    );
    const { checked, diagnostics } = checkPairs(ours, theirs, "Root", [
      { key: "withSiblings", ours: "WithSiblings" },
    ]);
    expect(diagnostics).toEqual([]);
    // Ours requires `id` (from the definition) and `extra`; theirs only `extra`.
    expect(checked).toEqual([{ key: "withSiblings", relation: "ours-narrower" }]);
  });
});
