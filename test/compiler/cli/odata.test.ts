/**
 * The CLI with an OData source, in-process: `add odata` (service root, or CSDL file with
 * --service-root), compile with its summary and left-out count, `inspect --report`, and `check`
 * classifying a changed CSDL with the compare rules (a new property compatible, a key type change
 * under security review). The CSDL is what SAP CAP generates for the fixture model.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bookshopEdmx } from "../../fixtures/odata/bookshop-edmx.js";
import { runCli } from "../../helpers/cli.js";
import { type TempProject, tempProject } from "../../helpers/project.js";

let csdl: string;
beforeAll(async () => {
  csdl = await bookshopEdmx("flat");
}, 60_000);

const run = (project: TempProject, ...args: string[]) => runCli(project.dir, args);

describe("schemarouter add odata", () => {
  it("appends a service root, or a CSDL file with its service root", async () => {
    const project = tempProject("cli-odata-add");
    await run(project, "init");
    const added = await run(project, "add", "odata", "catalog", "https://books.example/odata/v4/catalog");
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain('Added odata source "catalog".');
    expect(
      await run(
        project,
        "add",
        "odata",
        "offline",
        "catalog.xml",
        "--service-root",
        "https://books.example/odata/v4/catalog",
      ),
    ).toMatchObject({ code: 0 });
    const config = JSON.parse(readFileSync(project.configPath, "utf8"));
    expect(config.sources).toMatchObject({
      catalog: { kind: "odata", location: "https://books.example/odata/v4/catalog" },
      offline: {
        kind: "odata",
        location: "catalog.xml",
        serviceRoot: "https://books.example/odata/v4/catalog",
      },
    });
  });
});

describe("compile, inspect and check", () => {
  it("compiles the CSDL, reports what it left out, and classifies CSDL changes", async () => {
    const project = tempProject("cli-odata");
    writeFileSync(join(project.dir, "catalog.xml"), csdl);
    project.write({
      sources: {
        shop: {
          kind: "odata",
          location: "catalog.xml",
          serviceRoot: "https://books.example/odata/v4/catalog",
        },
      },
    });
    const compiled = await run(project, "compile");
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toMatch(/shop/);
    const report = await run(project, "inspect", "--report", "shop");
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("navigation-property");
    const inspect = await run(project, "inspect");
    expect(inspect.stdout).toMatch(/shop\.order\s+write/);
    expect(inspect.stdout).toMatch(/shop\.Books_list\s+read/);
    expect((await run(project, "check")).code).toBe(0);

    writeFileSync(
      join(project.dir, "catalog.xml"),
      csdl.replace(
        '<Property Name="openSince" Type="Edm.Date"/>',
        '<Property Name="openSince" Type="Edm.Date"/><Property Name="motto" Type="Edm.String"/>',
      ),
    );
    // A new property is a new field (compatible) and a new $select selector: the trusted server
    // projection changed, which the compare rules put under security review (as for OPTIMADE).
    const added = await run(project, "check", "--json");
    expect(added.code).toBe(1);
    const addedReport = JSON.parse(added.stdout);
    expect(addedReport.category).toBe("security-review");
    expect(
      addedReport.changes.map((change: { rule: string; endpoint: string }) => [change.rule, change.endpoint]),
    ).toEqual([
      ["response.field.added", "Shop_get"],
      ["response.property.optional-added", "Shop_get"],
      ["endpoint.server-projection-changed", "Shop_get"],
    ]);

    writeFileSync(
      join(project.dir, "catalog.xml"),
      csdl.replace(
        '<EntityType Name="Authors">\n        <Key>\n          <PropertyRef Name="ID"/>\n        </Key>\n        <Property Name="ID" Type="Edm.Int32" Nullable="false"/>',
        '<EntityType Name="Authors">\n        <Key>\n          <PropertyRef Name="ID"/>\n        </Key>\n        <Property Name="ID" Type="Edm.Int64" Nullable="false"/>',
      ),
    );
    const retyped = await run(project, "check", "--json");
    expect(retyped.code).toBe(1);
    const changes = JSON.parse(retyped.stdout);
    expect(["breaking", "security-review"]).toContain(changes.category);
    expect(JSON.stringify(changes)).toContain("endpoint.execution.odata-changed");
  });
});
