/**
 * Incremental compile: digests decide. A no-op compile reuses a local OpenAPI source without parsing
 * it again, writes nothing and leaves byte-identical files; any change to what the outputs depend on
 * (document, config entry, runtime import, lock entry, artifact, bindings) compiles it again, and the
 * result is byte-identical to a full compile. `--check`, `--dry-run` and `--frozen` never reuse.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompileOptions, compile } from "../../../compiler/compile/compile.js";
import { currentBindings, expectedStamps } from "../../../compiler/emit/bindings.js";
import { readStamp, stamped } from "../../../compiler/emit/stamp.js";
import { parseClientTemplate, readClientTemplate } from "../../../compiler/emit/template.js";
import { WrittenRecord } from "../../../compiler/emit/written-record.js";
import { canonicalJson, digestJson, sha256 } from "../../../runtime/format/fingerprint.js";
import { serializeLockfile } from "../../../runtime/format/lockfile.js";
import { copyInto, projectTree, type TempProject, tempProject } from "../../helpers/project.js";

const OVERLAYS = {
  endpoints: { getPetById: { fields: [{ id: "weight", path: ["weightKg"], unit: "kg" }] } },
};

function petstore(name = "incr"): TempProject {
  const project = tempProject(name);
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { pets: { kind: "openapi", location: "openapi.yaml", overlays: OVERLAYS } } });
  return project;
}

const tree = (project: TempProject) => projectTree(project);

const run = (project: TempProject, options: Partial<CompileOptions> = {}) =>
  compile({ config: project.configPath, env: {}, ...options });

/** The files a full (non-incremental) compile of the same inputs produces, in a fresh project. */
async function fullCompileOf(project: TempProject): Promise<Record<string, string>> {
  const fresh = tempProject("incr-full");
  writeFileSync(join(fresh.dir, "openapi.yaml"), readFileSync(join(project.dir, "openapi.yaml")));
  writeFileSync(fresh.configPath, readFileSync(project.configPath));
  const result = await run(fresh, { incremental: false });
  expect(result.reused).toEqual([]);
  return tree(fresh);
}

describe("incremental compile", () => {
  it("a no-op compile reuses the source, writes nothing and leaves byte-identical files", async () => {
    const project = petstore();
    const first = await run(project);
    expect(first.reused).toEqual([]);
    const before = tree(project);
    expect(Object.keys(before).sort()).toEqual([
      "generated/artifacts/pets.json",
      "generated/index.ts",
      "generated/pets.schemas.d.ts",
      "generated/pets.ts",
      "generated/pets.types.ts",
      "generated/retrieval-index.bin",
      "openapi.yaml",
      "schemarouter.lock.json",
    ]);

    const again = await run(project);
    expect(again.reused).toEqual(["pets"]);
    expect(again.write.written).toEqual([]);
    expect(again.write.stale).toEqual([]);
    expect(again.summaries.map((summary) => summary.status)).toEqual(["unchanged"]);
    expect(again.changes?.report.category).toBe("identical");
    expect(again.lock).toEqual(first.lock);
    expect(tree(project)).toEqual(before);
    // What the no-op kept is exactly what a full compile produces.
    expect(await fullCompileOf(project)).toEqual(before);
    const full = await run(project, { incremental: false });
    expect(full.reused).toEqual([]);
    expect(full.files.map((file) => [file.path, file.contents])).toEqual(
      again.files.map((file) => [file.path, file.contents]),
    );
    // The reused source still exposes its artifact and registered tools on demand.
    expect(again.sources[0]!.artifact.digest).toBe(first.sources[0]!.artifact.digest);
    expect(again.sources[0]!.tools[0]!.fingerprint).toBe(first.sources[0]!.tools[0]!.fingerprint);
  });

  const edits: [string, (project: TempProject) => void, readonly string[]][] = [
    [
      "the document changed",
      (p) => {
        const path = join(p.dir, "openapi.yaml");
        writeFileSync(path, readFileSync(path, "utf8").replace("List pets", "List all pets"));
      },
      ["generated/artifacts/pets.json", "generated/pets.ts", "schemarouter.lock.json"],
    ],
    [
      "an overlay in the config entry changed",
      (p) =>
        p.write({
          sources: {
            pets: {
              kind: "openapi",
              location: "openapi.yaml",
              overlays: {
                endpoints: { getPetById: { fields: [{ id: "weight", path: ["weightKg"], unit: "g" }] } },
              },
            },
          },
        }),
      ["generated/artifacts/pets.json", "generated/pets.ts", "schemarouter.lock.json"],
    ],
    [
      "the runtime import changed",
      (p) =>
        p.write({
          runtimeImport: "schemarouter",
          sources: { pets: { kind: "openapi", location: "openapi.yaml", overlays: OVERLAYS } },
        }),
      ["generated/index.ts", "generated/pets.ts"],
    ],
    [
      "a binding module was edited by hand",
      (p) =>
        writeFileSync(
          join(p.outDir, "pets.schemas.d.ts"),
          `${readFileSync(join(p.outDir, "pets.schemas.d.ts"), "utf8")}// edit\n`,
        ),
      ["generated/pets.schemas.d.ts"],
    ],
    [
      "a binding module's stamp was edited",
      (p) => {
        const path = join(p.outDir, "pets.ts");
        writeFileSync(
          path,
          readFileSync(path, "utf8").replace(/source=sha256:[0-9a-f]{4}/, "source=sha256:0000"),
        );
      },
      ["generated/pets.ts"],
    ],
    [
      "the artifact was edited",
      (p) => {
        const path = join(p.outDir, "artifacts", "pets.json");
        writeFileSync(path, readFileSync(path, "utf8").replace('"effect":"read"', '"effect":"write"'));
      },
      ["generated/artifacts/pets.json"],
    ],
    [
      "the lock entry was edited",
      (p) => {
        const lock = JSON.parse(readFileSync(p.lockfile, "utf8"));
        lock.sources.pets.tools.pets.endpoints.getPetById.effect = "destructive";
        writeFileSync(p.lockfile, `${JSON.stringify(lock, null, 2)}\n`);
      },
      ["schemarouter.lock.json"],
    ],
    [
      "a binding module was emptied",
      (p) => writeFileSync(join(p.outDir, "pets.types.ts"), ""),
      ["generated/pets.types.ts"],
    ],
  ];

  it.each(edits)(
    "compiles the source again when %s, byte-identical to a full compile",
    async (_, edit, rewritten) => {
      const project = petstore();
      await run(project);
      edit(project);
      const result = await run(project);
      expect(result.reused).toEqual([]);
      for (const file of rewritten) expect(result.write.written).toContain(join(project.dir, file));
      expect(tree(project)).toEqual(await fullCompileOf(project));
      // Now current again: the next compile is a no-op.
      expect((await run(project)).reused).toEqual(["pets"]);
    },
  );

  it.each([
    ["check", { mode: "check" }],
    ["dry-run", { mode: "dry-run" }],
    ["frozen", { frozen: true }],
    ["incremental: false", { incremental: false }],
  ] as const)("never reuses in %s mode", async (_, options) => {
    const project = petstore();
    await run(project);
    const result = await run(project, options);
    expect(result.reused).toEqual([]);
    expect(result.write.stale).toEqual([]);
  });

  it("keeps bindings whose stamps match and refuses them once any input digest differs", async () => {
    const project = petstore();
    const first = await run(project);
    const template = await readClientTemplate();
    const locked = first.lock.sources.pets!;
    const stamps = expectedStamps("pets", locked, first.config, template.text);
    const record = WrittenRecord.open(first.config.path);
    const files = await currentBindings("pets", first.config, stamps, record);
    expect(files?.map((file) => relative(project.dir, file.path))).toEqual([
      "generated/pets.schemas.d.ts",
      "generated/pets.types.ts",
      "generated/pets.ts",
    ]);
    const changedArtifact = {
      ...locked,
      artifact: { ...locked.artifact, digest: `sha256:${"0".repeat(64)}` },
    };
    expect(
      await currentBindings(
        "pets",
        first.config,
        expectedStamps("pets", changedArtifact, first.config, template.text),
        record,
      ),
    ).toBeUndefined();
    const otherTemplate = `${template.text}\n// changed\n`;
    expect(
      await currentBindings(
        "pets",
        first.config,
        expectedStamps("pets", locked, first.config, otherTemplate),
        record,
      ),
    ).toBeUndefined();
  });

  it("never reuses a version-1 artifact: it compiles it again, and the change report still reads the old one", async () => {
    const project = petstore();
    const first = await run(project);
    const path = join(project.outDir, "artifacts", "pets.json");
    const current = readFileSync(path, "utf8");
    // The artifact an older schemarouter wrote: one line, no endpoint index, format version 1.
    const { digest: _digest, endpointIndex: _index, ...rest } = JSON.parse(current);
    const body = { ...rest, formatVersion: 1 };
    const legacy = `${canonicalJson({ ...body, digest: digestJson(body) })}\n`;
    writeFileSync(path, legacy);
    const locked = first.lock.sources.pets!;
    const lock = {
      ...first.lock,
      sources: { pets: { ...locked, artifact: { ...locked.artifact, digest: sha256(legacy) } } },
    };
    writeFileSync(project.lockfile, serializeLockfile(lock));
    // …with bindings stamped for that lock, so only the format version can stop the reuse.
    const template = await readClientTemplate();
    const stamps = expectedStamps("pets", lock.sources.pets, first.config, template.text);
    for (const file of ["pets.ts", "pets.types.ts", "pets.schemas.d.ts"]) {
      const text = readFileSync(join(project.outDir, file), "utf8");
      const inputs: Record<string, string> = { ...readStamp(text)!, bindings: stamps.bindings };
      if (file === "pets.ts") inputs.source = stamps.source;
      writeFileSync(
        join(project.outDir, file),
        stamped(inputs, text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1)),
      );
    }
    // …and recorded as this compiler's own output, as an older compile would have left them.
    const record = WrittenRecord.open(first.config.path)!;
    await record.save(
      ["pets.ts", "pets.types.ts", "pets.schemas.d.ts"].map((file) => ({
        path: join(project.outDir, file),
        contents: readFileSync(join(project.outDir, file), "utf8"),
      })),
    );
    expect(
      await currentBindings("pets", first.config, stamps, WrittenRecord.open(first.config.path)),
    ).toBeDefined();

    const again = await run(project);
    expect(again.reused).toEqual([]);
    expect(readFileSync(path, "utf8")).toBe(current);
    expect(again.lock).toEqual(first.lock);
    expect(again.changes?.report.category).toBe("identical");
  });
});

describe("generated-file stamps", () => {
  it("round-trips the recorded inputs and rejects an edited body or a missing stamp", () => {
    const text = stamped({ source: "sha256:b", bindings: "sha256:a" }, "export {};\n");
    expect(text.split("\n")[1]).toMatch(
      /^\/\/ schemarouter-inputs: bindings=sha256:a source=sha256:b content=sha256:[0-9a-f]{64}$/,
    );
    expect(readStamp(text)).toEqual({ bindings: "sha256:a", source: "sha256:b" });
    expect(readStamp(text.replace("export {};", "export { x };"))).toBeUndefined();
    expect(readStamp("export {};\n")).toBeUndefined();
    expect(readStamp(text.replace("content=", "content"))).toBeUndefined();
  });

  it.each([
    ["no runtime import", (t: string) => t.replace(/from "\.\.\/runtime\/index\.js";/, 'from "x";')],
    ["no pins", (t: string) => t.replace("export const pins", "export const other")],
    ["no __Client method", (t: string) => t.replace("__method<", "other<")],
    ["no __Field alias", (t: string) => t.replace("export type __Field = keyof __Fields;", "")],
  ])("refuses a template with %s (TEMPLATE_INVALID)", async (_, edit) => {
    const template = await readClientTemplate();
    await expect(parseClientTemplate(edit(template.text))).rejects.toMatchObject({
      code: "TEMPLATE_INVALID",
    });
  });
});

describe("a generated module edited and re-stamped by hand", () => {
  /** Edits `file` and recomputes its `content=` stamp, as anyone can without a key. */
  function tamper(project: TempProject, file: string, edit: (body: string) => string): string {
    const path = join(project.outDir, file);
    const text = readFileSync(path, "utf8");
    const body = text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1);
    const forged = stamped(readStamp(text)!, edit(body));
    writeFileSync(path, forged);
    expect(readStamp(forged)).toEqual(readStamp(text));
    return path;
  }
  const pointElsewhere = (body: string) =>
    `${body.replace(/endpoint: "getPetById"/, 'endpoint: "deletePet"')}\nexport const injected = 1;\n`;

  it("is regenerated by a plain compile (the stamp alone is not trusted)", async () => {
    const project = petstore("tamper");
    await run(project);
    const clean = readFileSync(join(project.outDir, "pets.ts"), "utf8");
    const path = tamper(project, "pets.ts", pointElsewhere);
    const again = await run(project);
    expect(again.reused).toEqual([]);
    expect(again.write.written).toEqual([path]);
    expect(readFileSync(path, "utf8")).toBe(clean);
  });

  it("fails `compile --check` and is rewritten by `compile --frozen`", async () => {
    const project = petstore("tamper-check");
    await run(project);
    const clean = readFileSync(join(project.outDir, "pets.types.ts"), "utf8");
    const path = tamper(project, "pets.types.ts", (body) => `${body}export type Injected = 1;\n`);
    const checked = await run(project, { mode: "check" });
    expect(checked.write.stale).toEqual([path]);
    expect(readFileSync(path, "utf8")).not.toBe(clean);
    const frozen = await run(project, { frozen: true });
    expect(frozen.write.written).toEqual([path]);
    expect(readFileSync(path, "utf8")).toBe(clean);
  });

  it("is regenerated when the record does not hold its digest (the record, not the stamp, allows reuse)", async () => {
    const project = petstore("tamper-record");
    await run(project);
    expect(WrittenRecord.open(project.configPath)).toBeDefined();
    const path = tamper(project, "pets.schemas.d.ts", (body) => `${body}export type Injected = 1;\n`);
    // The record is what makes reuse possible: a record that lost the file's digest reuses nothing.
    const record = WrittenRecord.open(project.configPath)!;
    await record.save([{ path, contents: "something else" }]);
    const again = await run(project);
    expect(again.reused).toEqual([]);
    expect(again.write.written).toEqual([path]);
  });
});
