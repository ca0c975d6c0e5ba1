/**
 * Hostile and malformed OpenAPI documents (docs/trust-model.md §9, §16; docs/sources/openapi.md): every
 * generated case compiles with the construct reported, or is refused with a typed error — never a crash,
 * a hang or an untyped error — and no canary secret (in files next to the document, in server URLs,
 * in schema-fetch headers) appears in the artifact, the report or the error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitArtifact } from "../../compiler/emit/artifact.js";
import { openapiAdapter } from "../../compiler/sources/openapi/index.js";
import { isSchemaRouterError } from "../../runtime/errors/errors.js";
import { tempProject } from "../helpers/project.js";
import { type HostileCase, openapiCases } from "./openapi-cases.js";

const CANARY = "CANARY-7f3a9c";
const project = tempProject("hostile-openapi");
// A secret next to the document, for references that try to read it.
writeFileSync(join(project.dir, "secret.json"), JSON.stringify({ token: CANARY, x: { token: CANARY } }));
mkdirSync(join(project.dir, "docs"), { recursive: true });

const tally = { cases: 0, compiled: 0, reported: 0, refused: new Map<string, number>(), crashes: 0 };
afterAll(() => {
  const refused = [...tally.refused].map(([code, count]) => `${code} ${count}`).join(", ");
  console.log(
    `hostile OpenAPI documents: ${tally.cases} cases, ${tally.compiled} compiled (${tally.reported} with the construct reported), refused: ${refused}; crashes ${tally.crashes}`,
  );
});

async function compileCase(
  name: string,
  body: string | Uint8Array,
  extension: string,
): Promise<{ text?: string; constructs?: string[]; error?: unknown }> {
  const location = join(project.dir, "docs", `${name.replace(/[^a-z0-9]+/gi, "-")}.${extension}`);
  writeFileSync(location, body);
  try {
    const result = await openapiAdapter.resolve(
      "api",
      { kind: "openapi", location },
      { cwd: project.dir, env: { SCHEMA_TOKEN: CANARY }, allowInsecureHttp: false },
    );
    const { text } = emitArtifact("api", "openapi", result);
    return { text, constructs: result.compatibility.map((issue) => issue.construct) };
  } catch (error) {
    return { error };
  }
}

describe("hostile OpenAPI documents", () => {
  it.each(openapiCases(CANARY).map((c) => [c.name, c] as const))(
    "%s",
    async (_name, hostile: HostileCase) => {
      tally.cases++;
      const outcome = await compileCase(hostile.name, hostile.body, hostile.extension ?? "json");
      if (outcome.error !== undefined) {
        if (!isSchemaRouterError(outcome.error)) {
          tally.crashes++;
          throw outcome.error;
        }
        tally.refused.set(outcome.error.code, (tally.refused.get(outcome.error.code) ?? 0) + 1);
        expect(outcome.error.message).not.toContain(CANARY);
        expect(JSON.stringify(outcome.error.details ?? {})).not.toContain(CANARY);
        if (hostile.want === "compiled") throw new Error(`expected a compile, got ${outcome.error.code}`);
        if (typeof hostile.want === "object" && "refused" in hostile.want)
          expect(outcome.error.code).toBe(hostile.want.refused);
        return;
      }
      tally.compiled++;
      expect(outcome.text).not.toContain(CANARY);
      if (hostile.want === "refused") throw new Error("expected a typed refusal, got a compile");
      if (typeof hostile.want === "object" && "reported" in hostile.want) {
        expect(outcome.constructs).toContain(hostile.want.reported);
        tally.reported++;
      }
      if (hostile.endpoints !== undefined) {
        const artifact = JSON.parse(outcome.text!) as { tools: { endpoints: { name: string }[] }[] };
        expect(artifact.tools.flatMap((tool) => tool.endpoints.map((e) => e.name)).sort()).toEqual(
          [...hostile.endpoints].sort(),
        );
      }
    },
  );
});
