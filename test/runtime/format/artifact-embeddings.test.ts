/**
 * The artifact's `embeddings` member (docs/reference/formats.md#artifact): written one line per route
 * and per vector, read back as exactly `JSON.parse` of the file, and refused (ARTIFACT_INVALID,
 * reason `embeddings`) when it does not describe the artifact's own endpoints — even with a
 * consistent self-digest.
 */
import { describe, expect, it } from "vitest";
import { artifactOfBody } from "../../../compiler/emit/artifact.js";
import {
  ARTIFACT_FORMAT,
  ARTIFACT_FORMAT_VERSION,
  type ArtifactBody,
} from "../../../runtime/format/artifact.js";
import {
  type ArtifactEmbeddings,
  decodeVector,
  EMBEDDINGS_FORMAT,
  encodeVector,
} from "../../../runtime/format/artifact-embeddings.js";
import { parseArtifact } from "../../../runtime/format/artifact-read.js";
import { canonicalJson } from "../../../runtime/format/fingerprint.js";
import { endpoint, field, tool } from "../../fixtures/catalogs.js";

const unit = (values: number[]) => {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
};
const spec = tool("wx", [endpoint("current", { fields: [field("temperature")] }), endpoint("forecast")]);
const vectors = [
  encodeVector(unit([1, 0, 0, 1])),
  encodeVector(unit([0, 1, -1, 0])),
  encodeVector(unit([3, 1, 0, -2])),
];
const embeddings: ArtifactEmbeddings = {
  format: EMBEDDINGS_FORMAT,
  model: "m",
  dimension: 4,
  routes: {
    "wx.current": { endpoint: 0, fields: { temperature: 1 } },
    "wx.forecast": { endpoint: 2, fields: {} },
  },
  vectors,
};

function body(section: unknown): ArtifactBody {
  return JSON.parse(
    JSON.stringify({
      format: ARTIFACT_FORMAT,
      formatVersion: ARTIFACT_FORMAT_VERSION,
      compilerVersion: "test",
      source: { name: "wx", kind: "local", location: "wx.ts", documentDigest: `sha256:${"0".repeat(64)}` },
      $defs: {},
      tools: [spec],
      endpointIndex: {
        wx: [
          ["current", "read"],
          ["forecast", "read"],
        ],
      },
      remoteDigests: {},
      compatibility: [],
      embeddings: section,
    }),
  ) as ArtifactBody;
}

describe("the embeddings member", () => {
  it("is one line per route and per vector, and reads back as JSON.parse of the file", () => {
    const { text, artifact } = artifactOfBody(body(embeddings));
    const lines = text.split("\n");
    expect(lines).toContain('"wx.current":{"endpoint":0,"fields":{"temperature":1}},');
    expect(lines).toContain(`${JSON.stringify(vectors[0])},`);
    expect(text.replaceAll("\n", "")).toBe(`${canonicalJson(artifact)}`);
    const read = parseArtifact(text, "wx.json");
    expect(read).toEqual(JSON.parse(text));
    expect(Array.from(decodeVector(read.embeddings!.vectors[0]!))).toEqual([90, 0, 0, 90]);
  });

  it.each([
    [
      "a route the artifact does not declare",
      { ...embeddings, routes: { ...embeddings.routes, "wx.gone": { endpoint: 0, fields: {} } } },
    ],
    ["a missing route", { ...embeddings, routes: { "wx.current": embeddings.routes["wx.current"]! } }],
    [
      "an index past the vectors",
      { ...embeddings, routes: { ...embeddings.routes, "wx.forecast": { endpoint: 9, fields: {} } } },
    ],
    ["a vector of another dimension", { ...embeddings, dimension: 8 }],
    ["another format", { ...embeddings, format: "schemarouter.embeddings/2" }],
    ["an extra member", { ...embeddings, note: "x" }],
  ])("refuses %s (ARTIFACT_INVALID)", (_what, section) => {
    const { text } = artifactOfBody(body(section));
    expect(() => parseArtifact(text, "wx.json")).toThrow(
      expect.objectContaining({
        code: "ARTIFACT_INVALID",
        details: { path: "wx.json", reason: "embeddings" },
      }),
    );
  });
});
