/** A published CSDL document (Microsoft's TripPin sample service) compiled as a user would (docs/sources/odata.md). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../helpers/cli.js";
import { copyInto, tempProject } from "../../../helpers/project.js";

describe("OData: the TripPin sample's $metadata", () => {
  it("compiles entity sets, the singleton, functions and actions, and reports what it leaves out", async () => {
    const project = tempProject("odata-trippin");
    copyInto(project, "test/fixtures/odata/trippin.xml", "trippin.xml");
    project.write({
      sources: {
        trippin: {
          kind: "odata",
          location: "trippin.xml",
          serviceRoot: "https://services.example.com/TripPin",
        },
      },
    });
    const first = await runCli(project.dir, ["compile"]);
    expect(first.code, first.stderr).toBe(0);
    const artifact = readFileSync(join(project.outDir, "artifacts", "trippin.json"), "utf8");
    const report = JSON.parse(
      (await runCli(project.dir, ["inspect", "--report", "trippin", "--json"])).stdout,
    );
    expect(report).toMatchObject({
      endpoints: 20,
      leftOut: 1,
      leftOutReasons: [{ construct: "bound-function", pointers: ["/Schema/0/Function/GetInvolvedPeople"] }],
    });
    expect(report.partialReasons.map((r: { construct: string }) => r.construct)).toEqual([
      "navigation-property",
      "property-type",
    ]);
    const routes = JSON.parse((await runCli(project.dir, ["inspect", "--json"])).stdout) as {
      route: string;
      effect: string;
    }[];
    const effects = Object.fromEntries(routes.map((row) => [row.route, row.effect]));
    expect(effects).toMatchObject({
      "trippin.People_list": "read",
      "trippin.People_get": "read",
      "trippin.Me_get": "read",
      "trippin.GetNearestAirport": "read",
      "trippin.ResetDataSource": "write",
      "trippin.People_ShareTrip": "write",
    });
    // Edm.Int64 travels as a string (IEEE754Compatible), never as a number that could round.
    const defs = JSON.parse(artifact).$defs;
    expect(defs["Microsoft.OData.Service.Sample.TrippinInMemory.Models.Person"].properties.Age).toMatchObject(
      {
        type: expect.arrayContaining(["string"]),
      },
    );
    // Deterministic: a second compile changes nothing.
    await runCli(project.dir, ["compile"]);
    expect(readFileSync(join(project.outDir, "artifacts", "trippin.json"), "utf8")).toBe(artifact);
  });
});
