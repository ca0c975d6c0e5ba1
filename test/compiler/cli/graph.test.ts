/** `schemarouter graph`, `inspect <route>` neighbours, and the overlay keys they read (docs/runtime/capability-graph.md). */
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

const petId = "petstore:pet-id";

function petstore(project: TempProject, endpoints: Record<string, unknown>): TempProject {
  copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
  project.write({
    sources: { petstore: { kind: "openapi", location: "petstore.yaml", overlays: { endpoints } } },
  });
  return project;
}

const overlays = {
  listPets: {
    fields: [
      { id: "[].id", path: ["*", "id"], resultPath: ["*", "id"], semanticId: petId, identifier: true },
    ],
  },
  getPetById: { parameters: { petId: { semanticId: petId } } },
  listVisits: {
    parameters: { petId: { semanticId: petId } },
    fields: [{ id: "petId", path: ["petId"], semanticId: petId, identifier: true }],
  },
  deletePet: { parameters: { petId: { semanticId: petId } }, preconditions: ["petstore.getPetById"] },
};

describe("schemarouter graph", () => {
  it("prints the locked graph as text, Mermaid, DOT and JSON, deterministically", async () => {
    const project = petstore(tempProject("graph-cli"), overlays);
    expect((await runCli(project.dir, ["compile"])).code).toBe(0);
    const text = await runCli(project.dir, ["graph"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `  petstore.listPets field [].id → petstore.getPetById parameter petId (${petId})`,
    );
    expect(text.stdout).toContain("  petstore.getPetById → petstore.deletePet (precondition)");
    // listVisits returns the petId it takes: a route that can feed itself is reported as a cycle.
    expect(text.stdout).toContain("1 cycle(s):\n  petstore.listVisits\n");
    const mermaid = await runCli(project.dir, ["graph", "--format", "mermaid"]);
    expect(mermaid.stdout.startsWith("flowchart LR\n")).toBe(true);
    expect(mermaid.stdout).toMatch(/-\.->\|"precondition"\|/);
    const dot = await runCli(project.dir, ["graph", "--format", "dot"]);
    expect(dot.stdout.startsWith("digraph capabilities {\n")).toBe(true);
    const json = JSON.parse((await runCli(project.dir, ["graph", "--format", "json"])).stdout);
    expect(json.cycles).toEqual([["petstore.listVisits"]]);
    expect(json.edges.filter((edge: { to: string }) => edge.to === "petstore.deletePet")).toHaveLength(3);
    expect((await runCli(project.dir, ["graph"])).stdout).toBe(text.stdout);
  });

  it("refuses an unknown format with the allowed ones (exit 2)", async () => {
    const project = petstore(tempProject("graph-format"), {});
    await runCli(project.dir, ["compile"]);
    const result = await runCli(project.dir, ["graph", "--format", "svg"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error [USAGE]: --format must be one of text, mermaid, dot, json (got "svg").\n',
    );
  });

  it("inspect <route> shows the route's neighbours", async () => {
    const project = petstore(tempProject("graph-inspect"), overlays);
    await runCli(project.dir, ["compile"]);
    const shown = JSON.parse((await runCli(project.dir, ["inspect", "petstore.getPetById"])).stdout);
    expect(shown.endpoint.parameters[0]).toMatchObject({ name: "petId", semanticId: petId });
    expect(shown.neighbours.incoming.map((edge: { from: string }) => edge.from)).toEqual([
      "petstore.listPets",
      "petstore.listVisits",
    ]);
    expect(shown.neighbours.outgoing).toEqual([
      { kind: "precondition", from: "petstore.getPetById", to: "petstore.deletePet" },
    ]);
  });

  it("an overlay naming a parameter the endpoint does not have is refused with the declared ones", async () => {
    const project = petstore(tempProject("graph-overlay"), {
      getPetById: { parameters: { id: { semanticId: petId } } },
    });
    const result = await runCli(project.dir, ["compile"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'OVERLAY_INVALID]: petstore.getPetById: parameters.id: the endpoint has no parameter "id" (parameters: petId).',
    );
  });

  it("declaring a parameter meaning changes the endpoint fingerprint (it is part of the locked contract)", async () => {
    const plain = petstore(tempProject("graph-print-a"), {});
    const meant = petstore(tempProject("graph-print-b"), {
      getPetById: { parameters: { petId: { semanticId: petId } } },
    });
    await runCli(plain.dir, ["compile"]);
    await runCli(meant.dir, ["compile"]);
    const print = async (project: TempProject) =>
      JSON.parse((await runCli(project.dir, ["inspect", "petstore.getPetById"])).stdout).endpointFingerprint;
    expect(await print(plain)).not.toBe(await print(meant));
  });
});
