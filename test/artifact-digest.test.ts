/**
 * Cold-start verification shortcuts: the artifact self-digest read off the canonical file text (with
 * the canonical recomputation as the fallback for any other formatting), and `$ref` collection from
 * canonical text, which must agree exactly with the object walk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../compiler/compile.js";
import { artifactDigest, parseArtifact } from "../runtime/artifact.js";
import { canonicalJson, directDefRefs, directDefRefsInText } from "../runtime/fingerprint.js";
import { copyInto, tempProject } from "./helpers/project.js";

async function compiledArtifactText(): Promise<string> {
  const project = tempProject("artifact-digest");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  return readFileSync(join(project.outDir, "artifacts", "petstore.json"), "utf8");
}

function reorderedTopLevel(text: string): string {
  const value = JSON.parse(text) as Record<string, unknown>;
  const reversed: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) reversed[key] = value[key];
  return JSON.stringify(reversed);
}

describe("artifact self-digest", () => {
  it("accepts the compiled canonical text and every re-formatting of the same content", async () => {
    const text = await compiledArtifactText();
    const artifact = parseArtifact(text, "petstore.json");
    expect(artifact.digest).toBe(artifactDigest(artifact));
    const variants = [text.trimEnd(), JSON.stringify(JSON.parse(text), null, 2), reorderedTopLevel(text)];
    for (const variant of variants) {
      expect(parseArtifact(variant, "petstore.json").digest).toBe(artifact.digest);
    }
  });

  it("refuses edited content under an unchanged digest, in canonical and in any other form", async () => {
    const text = await compiledArtifactText();
    const edited = text.replace('"effect":"read"', '"effect":"reaa"');
    expect(edited).not.toBe(text);
    const variants = [
      edited,
      JSON.stringify(JSON.parse(edited), null, 2),
      reorderedTopLevel(edited),
      // a member moved after the digest: the splice no longer reproduces the hashed text
      text
        .replace(/,"format":"schemarouter\.artifact"/, "")
        .replace(/^\{/, '{"format":"schemarouter.artifact",'),
    ];
    for (const variant of variants.slice(0, 3)) {
      expect(() => parseArtifact(variant, "petstore.json")).toThrow(
        expect.objectContaining({
          code: "LOCK_MISMATCH",
          details: expect.objectContaining({ reason: "artifact-self-digest" }),
        }),
      );
    }
    // Same content in another member order is still the same artifact.
    expect(parseArtifact(variants[3]!, "petstore.json").digest).toBe(JSON.parse(text).digest);
  });

  it("refuses a recorded digest that is not the content's", async () => {
    const text = await compiledArtifactText();
    const recorded = (JSON.parse(text) as { digest: string }).digest;
    const forged = text.replace(recorded, `sha256:${"0".repeat(64)}`);
    expect(() => parseArtifact(forged, "petstore.json")).toThrow(
      expect.objectContaining({
        code: "LOCK_MISMATCH",
        details: expect.objectContaining({ reason: "artifact-self-digest" }),
      }),
    );
  });
});

describe("$ref collection from canonical text", () => {
  const cases: Array<[string, unknown]> = [
    [
      "plain refs, nested and in arrays",
      { a: { $ref: "#/$defs/A" }, b: [{ $ref: "#/$defs/B" }, { items: { $ref: "#/$defs/A" } }] },
    ],
    ["escaped pointer tokens", { $ref: "#/$defs/a~1b~0c" }],
    [
      "JSON escapes in the name",
      { x: { $ref: '#/$defs/q"uote\\back' }, y: { $ref: "#/$defs/tab\there\u2028" } },
    ],
    [
      "ref-like strings that are not $ref members",
      { enum: ['"$ref":"#/$defs/Nope"', "#/$defs/Nope"], const: 'x"$ref":"#/$defs/N"' },
    ],
    ["a property named $ref whose schema is an object", { properties: { $ref: { $ref: "#/$defs/Inner" } } }],
    [
      "non-$defs and non-string refs",
      { a: { $ref: "#/components/schemas/X" }, b: { $ref: 3 }, c: { $ref: { $ref: "#/$defs/D" } } },
    ],
    ["no refs at all", { type: "object", properties: { a: { type: "string" } } }],
  ];
  it.each(cases)("%s", (_name, value) => {
    const walked = [...directDefRefs(value)].sort();
    expect([...directDefRefsInText(canonicalJson(value))].sort()).toEqual(walked);
  });

  it("finds the references of the compiled artifact's definitions exactly as the walk does", async () => {
    const artifact = parseArtifact(await compiledArtifactText(), "petstore.json");
    const all = [artifact.$defs, ...artifact.tools.flatMap((tool) => tool.endpoints)];
    for (const value of all) {
      expect([...directDefRefsInText(canonicalJson(value))].sort()).toEqual([...directDefRefs(value)].sort());
    }
    expect(directDefRefs(artifact.tools).size).toBeGreaterThan(0);
  });
});
