/**
 * The artifact self-digest, checked at byte level on the line layout (every line but the digest line,
 * newlines removed, is the canonical JSON of the other members), and `$ref` collection from canonical
 * text, which must agree exactly with the object walk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { artifactDigest } from "../../../runtime/format/artifact.js";
import { parseArtifact } from "../../../runtime/format/artifact-read.js";
import {
  canonicalJson,
  directDefRefs,
  directDefRefsInText,
  sha256,
} from "../../../runtime/format/fingerprint.js";
import { copyInto, tempProject } from "../../helpers/project.js";

async function compiledArtifactText(): Promise<string> {
  const project = tempProject("artifact-digest");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  return readFileSync(join(project.outDir, "artifacts", "petstore.json"), "utf8");
}

/** Recomputes the recorded self-digest of a layout text the way the compiler does. */
function withSelfDigest(text: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.startsWith(',"digest":'));
  lines[at] = `,"digest":${JSON.stringify(sha256(lines.filter((_, index) => index !== at).join("")))}`;
  return lines.join("\n");
}

const selfDigest = expect.objectContaining({
  code: "LOCK_MISMATCH",
  details: expect.objectContaining({ reason: "artifact-self-digest" }),
});
const layout = expect.objectContaining({
  code: "ARTIFACT_INVALID",
  details: expect.objectContaining({ reason: "layout" }),
});

describe("artifact self-digest", () => {
  it("accepts the compiled text: its digest is the canonical digest of the other members", async () => {
    const text = await compiledArtifactText();
    const artifact = parseArtifact(text, "petstore.json");
    expect(artifact).toEqual(JSON.parse(text));
    expect(artifact.digest).toBe(artifactDigest(artifact));
    expect(parseArtifact(Buffer.from(text), "petstore.json")).toEqual(artifact);
  });

  it.each([
    ["an endpoint line", (t: string) => t.replace('"effect":"read"', '"effect":"reaa"')],
    ["a definition line", (t: string) => t.replace('"Pet":{', '"Pet":{"title":"x",')],
    ["the skeleton", (t: string) => t.replace('"level":"partial"', '"level":"unsupported"')],
    ["the endpoint index", (t: string) => t.replace('["listPets","read"]', '["listPets","write"]')],
  ])("refuses an edit of %s under the recorded digest", async (_where, edit) => {
    const text = await compiledArtifactText();
    const edited = edit(text);
    expect(edited).not.toBe(text);
    expect(() => parseArtifact(edited, "petstore.json")).toThrow(selfDigest);
  });

  it("refuses a recorded digest that is not the content's", async () => {
    const text = await compiledArtifactText();
    const recorded = (JSON.parse(text) as { digest: string }).digest;
    const forged = text.replace(recorded, `sha256:${"0".repeat(64)}`);
    expect(() => parseArtifact(forged, "petstore.json")).toThrow(selfDigest);
  });

  it.each([
    ["without the trailing newline", (t: string) => t.trimEnd()],
    ["on one line", (t: string) => `${canonicalJson(JSON.parse(t))}\n`],
    ["indented", (t: string) => `${JSON.stringify(JSON.parse(t), null, 2)}\n`],
    ["with CRLF line ends", (t: string) => t.replaceAll("\n", "\r\n")],
    ["with a blank line", (t: string) => t.replace('\n,"digest"', '\n\n,"digest"')],
    ["with two endpoints on one line", (t: string) => t.replace("},\n{", "},{")],
    ["with a misplaced comma", (t: string) => t.replace("},\n{", "}\n,{")],
    [
      "with two members swapped (not canonical)",
      (t: string) =>
        t.replace(
          ',"format":"schemarouter.artifact"\n,"formatVersion":2',
          ',"formatVersion":2\n,"format":"schemarouter.artifact"',
        ),
    ],
  ])("refuses the same content %s: the layout is part of the format", async (_how, reformat) => {
    const text = await compiledArtifactText();
    const variant = reformat(text);
    expect(variant).not.toBe(text);
    // Same value, and even a correct self-digest, does not make another layout acceptable.
    for (const candidate of [variant, withSelfDigest(variant)]) {
      expect(() => parseArtifact(candidate, "petstore.json")).toThrow(layout);
    }
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
