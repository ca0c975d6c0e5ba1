/**
 * `specOverlays` (docs/sources/openapi-overlays.md): OpenAPI Overlay 1.0 documents applied in order to
 * the source document before it compiles — update merges, array appends, removals, RFC 9535 targets —
 * what each did in the compile output and the artifact, unmatched targets as warnings, the overlay
 * files in the lock (drift for `compile --check` and `check`), and typed refusals naming file + pointer.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { checkDrift } from "../../../../compiler/compile/check.js";
import { compile } from "../../../../compiler/compile/compile.js";
import { loadConfig } from "../../../../compiler/config/config.js";
import { applyOverlayActions } from "../../../../compiler/sources/openapi/spec-overlays/apply.js";
import { readOverlayDocument } from "../../../../compiler/sources/openapi/spec-overlays/overlay-document.js";
import { sha256 } from "../../../../runtime/format/fingerprint.js";
import { runCli } from "../../../helpers/cli.js";
import { copyInto } from "../../../helpers/project.js";
import { failure } from "../../../helpers/refusal.js";
import { tempDocs } from "./helpers.js";

const docs = tempDocs();

const FIXES = {
  overlay: "1.0.0",
  info: { title: "Petstore fixes", version: "2.0.0" },
  actions: [
    {
      target: "$.paths['/pets/{petId}'].get",
      description: "A better summary and a tag.",
      update: { summary: "Look up one pet.", tags: ["pets"] },
    },
    { target: "$.components.schemas.Pet.required", update: "weightKg" },
    { target: "$.components.schemas.Pet.properties", update: { weightKg: { maximum: 500 } } },
    { target: "$.paths['/pets/{petId}'].delete", remove: true },
    { target: "$.paths['/toys'].get", update: { summary: "no such path" } },
  ],
};

const MORE = {
  overlay: "1.0.0",
  info: { title: "Later fixes", version: "1" },
  // Sees the document as the first overlay left it: the tags array it added gets a second entry.
  actions: [{ target: "$.paths[?@.get.operationId == 'getPetById'].get.tags", update: "lookup" }],
};

function petstoreProject(overlays: Record<string, unknown>) {
  const project = docs.project("spec-overlays");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  const files: string[] = [];
  for (const [file, overlay] of Object.entries(overlays)) {
    writeFileSync(
      join(project.dir, file),
      file.endsWith(".json") ? JSON.stringify(overlay) : stringifyYaml(overlay),
    );
    files.push(file);
  }
  project.write({ sources: { pets: { kind: "openapi", location: "openapi.yaml", specOverlays: files } } });
  return project;
}

describe("specOverlays", () => {
  it("applies every action in order before compiling, and reports what each changed", async () => {
    const project = petstoreProject({ "fixes.overlay.yaml": FIXES, "more.overlay.json": MORE });
    const result = await compile({ config: project.configPath, env: {} });
    const tool = result.sources[0]!.artifact.tools[0]!;
    const names = tool.endpoints.map((endpoint) => endpoint.name);
    expect(names).toContain("getPetById");
    expect(names).not.toContain("deletePet");
    const get = tool.endpoints.find((endpoint) => endpoint.name === "getPetById")!;
    expect(get.description).toBe("Look up one pet.");
    expect(get.metadata?.tags).toEqual(["pets", "lookup"]);
    const pet = result.sources[0]!.artifact.$defs.Pet as Record<string, unknown>;
    // Objects merged (minimum and description kept), arrays appended, primitives replaced.
    expect(pet.required).toEqual(["id", "name", "status", "weightKg"]);
    expect((pet.properties as Record<string, unknown>).weightKg).toMatchObject({
      type: "number",
      minimum: 0,
      maximum: 500,
      description: "Body weight in kilograms.",
    });
    expect(result.notes).toEqual([
      'pets: overlay fixes.overlay.yaml ("Petstore fixes" 2.0.0): 4 of 5 action(s) applied',
      "pets:   #0 update $.paths['/pets/{petId}'].get: 1 node(s) matched",
      "pets:   #1 update $.components.schemas.Pet.required: 1 node(s) matched",
      "pets:   #2 update $.components.schemas.Pet.properties: 1 node(s) matched",
      "pets:   #3 remove $.paths['/pets/{petId}'].delete: 1 node(s) matched",
      "pets:   #4 update $.paths['/toys'].get: 0 node(s) matched",
      'pets: overlay more.overlay.json ("Later fixes" 1): 1 of 1 action(s) applied',
      "pets:   #0 update $.paths[?@.get.operationId == 'getPetById'].get.tags: 1 node(s) matched",
    ]);
    expect(result.warnings).toEqual([
      `source "pets": overlay fixes.overlay.yaml action #4 (update $.paths['/toys'].get) matched nothing in the document; it changed nothing. Fix the target or remove the action.`,
    ]);
    const recorded = tool.metadata?.specOverlays as { file: string; digest: string; actions: unknown[] }[];
    expect(recorded.map((overlay) => overlay.file)).toEqual(["fixes.overlay.yaml", "more.overlay.json"]);
    expect(recorded[0]!.digest).toBe(sha256(readFileSync(join(project.dir, "fixes.overlay.yaml"))));
    expect(recorded[0]!.actions[4]).toEqual({
      index: 4,
      kind: "update",
      target: "$.paths['/toys'].get",
      matched: 0,
    });
    // The lock's document digest covers the overlays, not only the document's bytes.
    const locked = result.lock.sources.pets!;
    expect(locked.documentDigest).not.toBe(sha256(readFileSync(join(project.dir, "openapi.yaml"))));

    // The CLI prints the same, warnings on stderr.
    const cli = await runCli(project.dir, ["compile"]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(
      'note: pets: overlay fixes.overlay.yaml ("Petstore fixes" 2.0.0): 4 of 5 action(s) applied',
    );
    expect(cli.stderr).toContain('warning: source "pets": overlay fixes.overlay.yaml action #4');
    // check (CI) warns the same way.
    const check = await runCli(project.dir, ["check"]);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain('warning: source "pets": overlay fixes.overlay.yaml action #4');
  });

  it("an edited overlay is drift: compile --check is stale and check classifies the change", async () => {
    const project = petstoreProject({ "fixes.overlay.yaml": FIXES });
    await compile({ config: project.configPath, env: {} });
    expect((await compile({ config: project.configPath, mode: "check", env: {} })).write.stale).toEqual([]);

    // Only an action's description changes: no contract changes, but the locked digest does.
    const reworded = structuredClone(FIXES);
    reworded.actions[0]!.description = "Reworded.";
    writeFileSync(join(project.dir, "fixes.overlay.yaml"), stringifyYaml(reworded));
    const stale = await compile({ config: project.configPath, mode: "check", env: {} });
    expect(stale.write.stale).toContain(project.lockfile);
    const quiet = await checkDrift(project.configPath, {});
    expect(quiet.report.category).toBe("compatible");
    expect(quiet.report.changes.map((change) => [change.rule, change.pointer])).toEqual([
      ["tool.spec-overlays-changed", "/sources/pets/tools/pets/metadata/specOverlays"],
    ]);
    expect(quiet.report.changes[0]!.message).toMatch(
      /^OpenAPI overlays applied: fixes\.overlay\.yaml \(sha256:[0-9a-f]{7}…\): #0 update \$\.paths\['\/pets\/\{petId\}'\]\.get → 1, .* before, fixes\.overlay\.yaml \(sha256:[0-9a-f]{7}…\): .* now$/,
    );

    // The overlay now allows heavier pets: a response change the drift review classifies.
    const heavier = structuredClone(FIXES);
    heavier.actions[2]!.update = { weightKg: { maximum: 900 } };
    writeFileSync(join(project.dir, "fixes.overlay.yaml"), stringifyYaml(heavier));
    const drift = await checkDrift(project.configPath, {});
    expect(drift.report.category).toBe("breaking");
    expect(JSON.stringify(drift.report)).toContain("maximum");
  });

  it("refuses an invalid overlay document with its file and the pointer at fault", async () => {
    const cases: [unknown, string, RegExp][] = [
      [
        { ...FIXES, overlay: "2.0.0" },
        "/overlay",
        /"overlay" is "2\.0\.0"; schemarouter applies Overlay Specification 1\.0\.x/,
      ],
      [{ ...FIXES, info: { title: "x" } }, "/info/version", /"info\.version" is required/],
      [{ ...FIXES, actions: [] }, "/actions", /"actions" is required: a non-empty array/],
      [
        { ...FIXES, actions: [{ target: "$.paths[", remove: true }] },
        "/actions/0/target",
        /"target" "\$\.paths\[" is not an RFC 9535 JSONPath query/,
      ],
      [{ ...FIXES, actions: [{ target: "$.info" }] }, "/actions/0", /the action does nothing/],
      [
        { ...FIXES, actions: [{ target: "$.info", updates: { title: "x" } }] },
        "/actions/0/updates",
        /unknown member "updates" \(allowed: target, description, update, remove, or an "x-" extension\)/,
      ],
      [
        { ...FIXES, actions: [{ target: "$.info.title", update: "Renamed" }] },
        "/actions/0",
        /selects "Petstore" at \/info\/title; an update target must select objects or arrays/,
      ],
      [
        { ...FIXES, actions: [{ target: "$.info", update: "Renamed" }] },
        "/actions/0",
        /selects an object at \/info; "update" must then be an object/,
      ],
      [{ ...FIXES, actions: [{ target: "$", remove: true }] }, "/actions/0", /selects the whole document/],
    ];
    for (const [overlay, pointer, message] of cases) {
      const project = petstoreProject({ "bad.overlay.yaml": overlay });
      const error = await failure(compile({ config: project.configPath, env: {} }));
      expect(error.code, JSON.stringify(overlay)).toBe("SPEC_OVERLAY_INVALID");
      expect(error.details).toEqual({ source: "pets", file: "bad.overlay.yaml", pointer });
      expect(error.message).toMatch(/^source "pets": overlay bad\.overlay\.yaml at /);
      expect(error.message).toMatch(message);
    }
  });

  it("refuses an overlay file that is missing or not JSON/YAML", async () => {
    const project = petstoreProject({});
    project.write({
      sources: { pets: { kind: "openapi", location: "openapi.yaml", specOverlays: ["missing.yaml"] } },
    });
    const missing = await failure(compile({ config: project.configPath, env: {} }));
    expect(missing.code).toBe("SPEC_OVERLAY_INVALID");
    expect(missing.message).toBe(
      'source "pets": overlay missing.yaml: cannot be read (ENOENT); the path is relative to the config file.',
    );
    writeFileSync(join(project.dir, "missing.yaml"), "actions: [\n");
    const broken = await failure(compile({ config: project.configPath, env: {} }));
    expect(broken.code).toBe("SPEC_OVERLAY_INVALID");
    expect(broken.message).toMatch(
      /^source "pets": overlay missing\.yaml: overlay missing\.yaml is not valid JSON or YAML/,
    );
  });

  it("the config names specOverlays when it is not a list of overlay files", async () => {
    const project = petstoreProject({});
    project.write({
      sources: { pets: { kind: "openapi", location: "openapi.yaml", specOverlays: "fix.yaml" } },
    });
    const error = await failure(loadConfig(project.configPath));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(
      '"sources.pets.specOverlays" must be array: OpenAPI Overlay 1.0 documents (.yaml, .yml or .json files, relative to this config) applied in order to the document before it is compiled.',
    );
    project.write({
      sources: { pets: { kind: "openapi", location: "openapi.yaml", specOverlays: ["fix.txt"] } },
    });
    const named = await failure(loadConfig(project.configPath));
    expect(named.code).toBe("CONFIG_INVALID");
    expect(named.message).toContain(
      '"sources.pets.specOverlays.0" must match pattern "\\.(ya?ml|json)$": An OpenAPI Overlay 1.0 file: a path ending in .yaml, .yml or .json.',
    );
  });
});

describe("overlay actions on member names RFC 9535 escapes", () => {
  it("updates and removes members whose names hold quotes, backslashes and control characters", async () => {
    const doc = parseYaml(`
paths:
  "/it's": { get: { summary: a } }
  "/back\\\\slash": { get: { summary: b } }
  "/tab\\there": { get: { summary: c } }
  "/kept": { get: { summary: d } }
`) as Record<string, unknown>;
    const keys = Object.keys(doc.paths as object);
    expect(keys).toEqual(["/it's", "/back\\slash", "/tab\there", "/kept"]);
    const applied = applyOverlayActions("pets", doc, {
      file: "x.yaml",
      title: "t",
      version: "1",
      digest: "sha256:",
      actions: [
        { index: 0, target: "$.paths[?@.get.summary != 'd']", remove: true },
        {
          index: 1,
          target: "$.paths['/kept'].get",
          update: JSON.parse('{"__proto__": {"polluted": true}}'),
          remove: false,
        },
      ],
    });
    expect(applied.map((action) => action.matched)).toEqual([3, 1]);
    expect(Object.keys(doc.paths as object)).toEqual(["/kept"]);
    const get = (doc.paths as Record<string, Record<string, object>>)["/kept"]!.get!;
    // `__proto__` from a parsed document is an ordinary member, never the object's prototype.
    expect(Object.getPrototypeOf(get)).toBe(Object.prototype);
    expect(Object.hasOwn(get, "__proto__")).toBe(true);
  });

  it("removes several elements of one array, whatever order the query lists them in", async () => {
    const doc = { tags: ["a", "b", "c", "d", "e"] };
    applyOverlayActions("pets", doc, {
      file: "x.yaml",
      title: "t",
      version: "1",
      digest: "sha256:",
      actions: [{ index: 0, target: "$.tags[3,0,3,1]", remove: true }],
    });
    expect(doc.tags).toEqual(["c", "e"]);
  });

  it("reads a YAML overlay with x- extensions", async () => {
    const project = docs.project("overlay-read");
    writeFileSync(
      join(project.dir, "ok.overlay.yaml"),
      "overlay: 1.0.0\nx-owner: api-team\ninfo: { title: T, version: '3' }\nactions:\n  - target: $.info\n    x-ticket: 14\n    update: { title: New }\n",
    );
    const overlay = await readOverlayDocument("pets", "ok.overlay.yaml", project.dir);
    expect(overlay).toMatchObject({ file: "ok.overlay.yaml", title: "T", version: "3" });
    expect(overlay.actions).toEqual([
      { index: 0, target: "$.info", update: { title: "New" }, remove: false },
    ]);
  });
});
