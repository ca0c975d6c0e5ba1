/**
 * The CLI with an OpenRPC source: `add openrpc` (a document with --url, or --discover), `compile` with
 * its compatibility summary, `inspect --report`, and `check` classifying drift of the document and of
 * the local effects with the existing compare rules (docs/sources/openrpc.md, docs/drift-review.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PETSTORE_DOCUMENT_PATH } from "../../fixtures/openrpc/petstore-server.js";
import { runCli } from "../../helpers/cli.js";
import { tempProject, writeInto } from "../../helpers/project.js";

const run = (dir: string, ...args: string[]) => runCli(dir, args);

function petstoreProject() {
  const project = tempProject("openrpc-cli");
  writeInto(project, "petstore.json", readFileSync(PETSTORE_DOCUMENT_PATH, "utf8"));
  project.write({ sources: {} });
  return project;
}

describe("schemarouter with an OpenRPC source", () => {
  it("add openrpc writes a document source with --url, or a --discover source; each needs what it needs", async () => {
    const project = petstoreProject();
    expect(await run(project.dir, "add", "openrpc", "petstore", "petstore.json")).toMatchObject({ code: 2 });
    expect(
      await run(
        project.dir,
        "add",
        "openrpc",
        "both",
        "petstore.json",
        "--discover",
        "https://rpc.example.org/",
      ),
    ).toMatchObject({ code: 2 });
    const added = await run(
      project.dir,
      "add",
      "openrpc",
      "petstore",
      "petstore.json",
      "--url",
      "https://rpc.example.org/",
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      'Added openrpc source "petstore". Classify its methods in "effects" to allow calls, then run `schemarouter compile`.\n',
    );
    expect(
      await run(project.dir, "add", "openrpc", "live", "--discover", "https://rpc.example.org/"),
    ).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(project.configPath, "utf8")).sources).toEqual({
      petstore: { kind: "openrpc", location: "petstore.json", url: "https://rpc.example.org/" },
      live: { kind: "openrpc", discover: "https://rpc.example.org/" },
    });
  });

  it("compiles, reports what is partial, and check classifies drift of the document and of local effects", async () => {
    const project = petstoreProject();
    const config = (effects: Record<string, string>) =>
      project.write({
        sources: {
          petstore: { kind: "openrpc", location: "petstore.json", url: "https://rpc.example.org/", effects },
        },
      });
    config({ list_pets: "read", get_pet: "read" });
    const compiled = await run(project.dir, "compile");
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toContain("petstore: 3 endpoints (2 read, 1 unclassified) — new");
    expect(compiled.stdout).toContain(
      "examples 3: /methods/0/examples, /methods/1/examples, /methods/2/examples",
    );
    const report = await run(project.dir, "inspect", "--report", "petstore");
    expect(report.code).toBe(0);
    expect(report.stdout).toContain(
      "petstore: 3 endpoints, 0 operation(s) left out, 3 partly supported construct(s)",
    );
    expect((await run(project.dir, "check")).code).toBe(0);

    // The document changes what a pet's name is: a breaking response change.
    const document = JSON.parse(readFileSync(PETSTORE_DOCUMENT_PATH, "utf8"));
    document.components.schemas.Pet.properties.name = { type: "integer" };
    writeInto(project, "petstore.json", JSON.stringify(document));
    const drifted = await run(project.dir, "check");
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain("breaking");

    // Local effects reclassify a method: a security review.
    writeInto(project, "petstore.json", readFileSync(PETSTORE_DOCUMENT_PATH, "utf8"));
    config({ list_pets: "read", get_pet: "write" });
    const reclassified = await run(project.dir, "check", "--json");
    expect(reclassified.code).toBe(1);
    expect(JSON.stringify(JSON.parse(reclassified.stdout))).toContain("endpoint.effect.escalated");
  });
});
