/**
 * Real documents with fields named `constructor` compile (only a `__proto__` parameter leaves its own
 * operation out), and a document nested thousands of levels deep is refused naming the limit and the
 * pointer, not with a stack overflow.
 */
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/index.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

function documentNaming(key: string): string {
  return `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"postX","parameters":[{"name":"${key}","in":"query","schema":{"type":"string"}}],"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"${key}":{"type":"string"},"other":{"type":"object","properties":{"${key}":{"type":"integer"}}}}}}}},"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{"${key}":{"type":"string"},"name":{"type":"string"}}}}}}}}},"/ok":{"get":{"operationId":"ok","responses":{"200":{"description":"ok"}}}}}}`;
}

async function compileText(text: string) {
  const project = tempProject("reserved");
  writeInto(project, "api.json", text);
  project.write({ sources: { api: { kind: "openapi", location: "api.json" } } });
  return compile({ config: project.configPath });
}

describe("reserved names", () => {
  it.each(["constructor", "prototype"])(
    "a parameter or field named %s is renamed, sent as itself, and the document compiles",
    async (key) => {
      const result = await compileText(documentNaming(key));
      const endpoint = result.sources[0]!.artifact.tools[0]!.endpoints.find((e) => e.name === "postX")!;
      expect(endpoint.parameters.map((p) => [p.name, p.wireName, p.location])).toEqual([
        [`query_${key}`, key, "query"],
        [`body_${key}`, key, "body"],
        ["other", undefined, "body"],
      ]);
      expect(endpoint.fields.map((field) => field.id)).toEqual(["name"]);
      expect(result.coverage[0]).toMatchObject({ endpoints: 2, leftOut: 0 });
      expect(result.coverage[0]!.partialReasons.find((r) => r.construct === "reserved-name")?.count).toBe(2);
    },
  );

  it("a __proto__ parameter leaves only its operation out, reported", async () => {
    const result = await compileText(documentNaming("__proto__"));
    expect(result.sources[0]!.artifact.tools[0]!.endpoints.map((e) => e.name)).toEqual(["ok"]);
    expect(result.coverage[0]!.leftOutReasons).toEqual([
      { construct: "reserved-name", count: 1, pointers: ["/paths/~1x/post"] },
    ]);
  });
});

describe("deep nesting", () => {
  it("3,000 levels are refused with the limit and the pointer", async () => {
    const schema = `${'{"type":"object","properties":{"a":'.repeat(3000)}{"type":"string"}${"}}".repeat(3000)}`;
    const text = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${schema}}}}}}}}}`;
    const error = await compileText(text).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SOURCE_INVALID" });
    expect((error as Error).message).toContain(
      "nests deeper than 512 levels (at /paths/~1x/get/responses/200/content/application~1json/schema/properties/a/properties/a",
    );
    expect((error as Error).message).not.toContain("call stack");
  });

  it("a YAML document is held to the same limit, and one whose aliases share a node compiles", async () => {
    const schema = `${"{type: object, properties: {a: ".repeat(300)}{type: string}${"}}".repeat(300)}`;
    const head =
      'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /x:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n';
    const error = await compileText(`${head}              schema: ${schema}\n`).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "SOURCE_INVALID" });
    expect((error as Error).message).toContain(
      "nests deeper than 512 levels (at /paths/~1x/get/responses/200/content/application~1json/schema/properties/a",
    );
    const shared = `${head}              schema: &pet {type: object, properties: {name: {type: string}}}\n  /y:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: *pet\n`;
    const result = await compileText(shared);
    expect(result.coverage[0]).toMatchObject({ endpoints: 2, leftOut: 0 });
  });
});
