/**
 * The component lengths of the stored retrieval index (docs/reference/formats.md, `componentLengths`;
 * docs/runtime/retrieval-and-planning.md, "Scoring"): the compiler stores each endpoint's distinct
 * tokens per lexical component, and a ranking from the stored index reads them instead of counting
 * the postings. They must be exactly what the surface gives, so the length factors (and with them
 * every score) are the same bits as an in-memory or exhaustive ranking: checked on GitHub REST, the
 * real document of issue #20's target 3.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import {
  decodeRetrievalIndex,
  encodeRetrievalIndex,
  RetrievalIndexFormatError,
} from "../../../runtime/format/retrieval-index.js";
import { loadCatalog } from "../../../runtime/load/load.js";
import type { Registry } from "../../../runtime/load/registry.js";
import { createRetriever } from "../../../runtime/retrieval/index.js";
import {
  componentLengthsOfRows,
  LENGTH_BITS,
  type LengthNorms,
  lengthNorms,
} from "../../../runtime/retrieval/length-norm.js";
import { normsOf } from "../../../runtime/retrieval/score.js";
import { catalogFromStoredIndex, storedIndexOf } from "../../../runtime/retrieval/stored-index.js";
import { buildCatalog, buildSurface } from "../../../runtime/retrieval/surface.js";
import { BIT } from "../../../runtime/retrieval/surface-builder.js";
import { endpoint, registryOf, tool } from "../../fixtures/catalogs.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../helpers/project.js";

const GITHUB = join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

let project: TempProject;
/** A load ranking from the stored index, and a second load of the same project (the reference). */
let stored: Registry;
let reference: Registry;

beforeAll(async () => {
  project = tempProject("stored-lengths");
  project.write({ sources: { github: { kind: "openapi", location: GITHUB } } });
  await compile({ config: project.configPath });
  const loaded = await loadCatalog({ root: project.dir });
  expect(loaded.retrievalIndex).toBe("used");
  stored = loaded.registry;
  reference = (await loadCatalog({ root: project.dir })).registry;
}, 300_000);

/** Every endpoint's factors, one row of `norms.width` per endpoint. */
function allFactors(norms: LengthNorms, endpoints: number): Float64Array {
  const out = new Float64Array(endpoints * norms.width);
  for (let e = 0; e < endpoints; e++) out.set(norms.factorsOf(e), e * norms.width);
  return out;
}

const bytesOf = (array: ArrayBufferView): Buffer =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength);

describe("stored component lengths", () => {
  it("equal the lengths the surface of GitHub REST gives, endpoint by endpoint", () => {
    const data = decodeRetrievalIndex(readFileSync(join(project.outDir, "retrieval-index.bin")));
    expect(data.lengthBits).toEqual(LENGTH_BITS);
    const surface = buildSurface(reference.entries(), false);
    const counted = componentLengthsOfRows(surface.surfaceMasks, surface.surfaceStart, LENGTH_BITS);
    expect(data.componentLengths.length).toBe(reference.entries().length * LENGTH_BITS.length);
    expect(data.componentLengths.length).toBeGreaterThan(1000 * LENGTH_BITS.length);
    expect(bytesOf(data.componentLengths).equals(bytesOf(counted))).toBe(true);
    // Not a column of zeros: names and summaries have tokens.
    const name = LENGTH_BITS.indexOf(BIT.name);
    expect(data.componentLengths[name]).toBeGreaterThan(0);
  });

  it("give the same length factors, bit for bit, as the in-memory index and exhaustive scoring", () => {
    const attached = storedIndexOf(stored);
    expect(attached).toBeDefined();
    const n = reference.entries().length;
    const fromIndex = normsOf(catalogFromStoredIndex(stored, attached!));
    const inMemory = normsOf(buildCatalog(reference, true));
    const exhaustive = normsOf(buildCatalog(reference, false));
    const factors = allFactors(fromIndex, n);
    expect(bytesOf(factors).equals(bytesOf(allFactors(inMemory, n)))).toBe(true);
    expect(bytesOf(factors).equals(bytesOf(allFactors(exhaustive, n)))).toBe(true);
    expect(bytesOf(fromIndex.favourable).equals(bytesOf(inMemory.favourable))).toBe(true);
    // The favourable factor of each component is the largest any endpoint has (the pruning bound).
    for (let c = 0; c < fromIndex.width; c++) {
      let largest = 1;
      for (let e = 0; e < n; e++) largest = Math.max(largest, factors[e * fromIndex.width + c]!);
      expect(fromIndex.favourable[c]).toBe(largest);
    }
    // Normalisation is on: some factor differs from 1 on both sides of it.
    expect(factors.some((f) => f > 1)).toBe(true);
    expect(factors.some((f) => f < 1)).toBe(true);
  });

  it("rank GitHub REST requests exactly as exhaustive scoring does", () => {
    const fromIndex = createRetriever(stored);
    const exhaustive = createRetriever(reference, { exhaustive: true });
    expect(fromIndex.stats().origin).toBe("stored");
    for (const query of [
      "get a repository",
      "delete a repository",
      "list my repositories",
      "get all requested reviewers for pull request",
      "star count of a repository",
      "create an issue comment",
    ]) {
      const view = (r: typeof fromIndex) => r.retrieve({ query }, { k: 10 }).map((c) => [c.route, c.score]);
      expect(view(fromIndex)).toEqual(view(exhaustive));
    }
  });
});

describe("length factors from a surface's stored counts", () => {
  const registry = registryOf([
    tool("issues", [
      endpoint("add_assignees_to_issue", { description: "Issue assignees", effect: "write" }),
      endpoint("update_issue", { description: "Issue", effect: "write" }),
      endpoint("list_issue_events_for_repository", { description: "List the issue events of a repository" }),
    ]),
  ]);
  const bits = [BIT.name, BIT.tool, BIT.summary];
  const b = [0.75, 0, 0.5];

  it("are read from the counts when the surface carries them (no rows, no postings needed)", () => {
    const surface = buildSurface(registry.entries(), true);
    const counts = componentLengthsOfRows(surface.surfaceMasks, surface.surfaceStart, LENGTH_BITS);
    const counted = lengthNorms(surface, 3, bits, b);
    const none = new Uint32Array(0);
    const read = lengthNorms(
      {
        ...surface,
        surfaceIds: none,
        surfaceMasks: new Uint16Array(0),
        surfaceStart: none,
        postings: new Int32Array(0),
        postingMasks: new Uint16Array(0),
        componentLengths: { bits: LENGTH_BITS, counts },
      },
      3,
      bits,
      b,
    );
    expect([...allFactors(read, 3)]).toEqual([...allFactors(counted, 3)]);
    expect([...read.favourable]).toEqual([...counted.favourable]);
    // Names of 3, 2 and 4 tokens: the average one gets 1, the short one more, the long one less.
    const names = [0, 1, 2].map((e) => counted.factorsOf(e)[0]!);
    expect([names[0], names[1]! > 1, names[2]! < 1]).toEqual([1, true, true]);
  });

  it("are counted from the postings when the stored counts lack a normalised component", () => {
    const rows = buildSurface(registry.entries(), true);
    const counted = lengthNorms(rows, 3, bits, b);
    const summaryOnly = componentLengthsOfRows(rows.surfaceMasks, rows.surfaceStart, [BIT.summary]);
    const fromPostings = lengthNorms(
      {
        ...rows,
        surfaceStart: new Uint32Array(0),
        componentLengths: { bits: [BIT.summary], counts: summaryOnly },
      },
      3,
      bits,
      b,
    );
    expect([...allFactors(fromPostings, 3)]).toEqual([...allFactors(counted, 3)]);
  });
});

describe("the componentLengths section", () => {
  it("round-trips, and an index whose lengths are not one row per endpoint or whose bits are not single components is refused", () => {
    const data = decodeRetrievalIndex(readFileSync(join(project.outDir, "retrieval-index.bin")));
    expect(bytesOf(encodeRetrievalIndex(decodeRetrievalIndex(encodeRetrievalIndex(data))))).toEqual(
      bytesOf(encodeRetrievalIndex(data)),
    );
    expect(() =>
      encodeRetrievalIndex({ ...data, componentLengths: data.componentLengths.subarray(1) }),
    ).toThrow(RetrievalIndexFormatError);
    for (const lengthBits of [
      [3, ...LENGTH_BITS.slice(1)],
      [BIT.name, BIT.name, ...LENGTH_BITS.slice(2)],
    ]) {
      const bytes = encodeRetrievalIndex({ ...data, lengthBits });
      expect(() => decodeRetrievalIndex(bytes)).toThrow(/wrong shape/);
    }
  });
});
