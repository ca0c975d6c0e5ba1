/**
 * Compiling with an embedder (docs/runtime/embeddings.md, "Compiling with an embedder"): the
 * artifact gains an `embeddings` member with a vector for every endpoint and declared field, the
 * same embedder output gives the same bytes, the lock's digest covers the vectors, and without an
 * embedder the artifact is byte-identical to one compiled before embedders existed.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeVector, EMBEDDINGS_FORMAT } from "../../../../runtime/format/artifact-embeddings.js";
import { parseArtifact } from "../../../../runtime/format/artifact-read.js";
import { loadCatalog } from "../../../../runtime/load/load.js";
import { endpointText, fieldText } from "../../../../runtime/retrieval/embeddings/text.js";
import { vectorOf } from "../../../fixtures/embeddings/trigram-embedder.mjs";
import { artifactPath, artifactText, compileWeather, weatherProject } from "./project.js";

describe("compiling with an embedder", () => {
  it("stores a quantised vector for every endpoint and declared field, in the pinned artifact", async () => {
    const project = weatherProject();
    await compileWeather(project, {});
    const artifact = parseArtifact(artifactText(project), artifactPath(project));
    const section = artifact.embeddings!;
    expect(section).toMatchObject({ format: EMBEDDINGS_FORMAT, model: "trigram-256", dimension: 256 });
    const endpoints = artifact.tools.flatMap((tool) => tool.endpoints.map((e) => ({ tool, endpoint: e })));
    expect(Object.keys(section.routes).sort()).toEqual(
      endpoints.map(({ tool, endpoint }) => `${tool.name}.${endpoint.name}`).sort(),
    );
    for (const { tool, endpoint } of endpoints) {
      const entry = section.routes[`${tool.name}.${endpoint.name}`]!;
      expect(Object.keys(entry.fields).sort()).toEqual(endpoint.fields.map((f) => f.id).sort());
      // The stored vector is the embedder's vector of the documented text, quantised to bytes.
      const stored = decodeVector(section.vectors[entry.endpoint]!);
      const expected = vectorOf(endpointText(endpoint));
      expect(Array.from(stored)).toEqual(expected.map((x: number) => Math.round(x * 127)));
      for (const field of endpoint.fields) {
        const bytes = decodeVector(section.vectors[entry.fields[field.id]!]!);
        expect(Array.from(bytes)).toEqual(vectorOf(fieldText(field)).map((x: number) => Math.round(x * 127)));
      }
    }
    // Identical texts share one vector (e.g. every "Station identifier" field of one name).
    expect(new Set(section.vectors).size).toBe(section.vectors.length);
  });

  it("gives byte-identical artifacts for the same embedder output, and batching does not change them", async () => {
    const first = weatherProject();
    await compileWeather(first, {});
    const second = weatherProject();
    await compileWeather(second, { batchSize: 1 });
    expect(artifactText(second)).toBe(artifactText(first));
  });

  it("writes no embeddings member without an embedder, and drops stale vectors when the embedder is removed", async () => {
    const plain = weatherProject();
    await compileWeather(plain);
    expect(artifactText(plain)).not.toContain('"embeddings"');

    const project = weatherProject();
    await compileWeather(project, {});
    expect(artifactText(project)).toContain('\n,"embeddings":');
    // Removing the embedder: the incremental compile must not keep the artifact that has vectors.
    const result = await compileWeather(project, false);
    expect(result.reused).toEqual([]);
    expect(artifactText(project)).toBe(artifactText(plain));
  });

  it("pins the vectors: a changed vector is refused at load (LOCK_MISMATCH)", async () => {
    const project = weatherProject();
    await compileWeather(project, {});
    const text = artifactText(project);
    const artifact = parseArtifact(text, artifactPath(project));
    const vector = artifact.embeddings!.vectors[0]!;
    const swapped = vector.startsWith("A") ? `B${vector.slice(1)}` : `A${vector.slice(1)}`;
    writeFileSync(artifactPath(project), text.replace(vector, swapped));
    // With the stored retrieval index, a first-use load reads no artifact (docs/runtime/loading-and-
    // verification.md, "Retrieval index and deferred sources"): full verification reads it at load,
    // and so does a load with an embedder (it reads the vectors).
    await expect(loadCatalog({ lockfile: project.lockfile, verify: "full" })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { reason: "artifact-digest" },
    });
  });
});
