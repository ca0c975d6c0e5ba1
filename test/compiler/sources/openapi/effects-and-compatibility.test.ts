/** Side effects from the HTTP method, and the compatibility report of partial and unsupported constructs. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodePointerToken } from "../../../../runtime/model/json-pointer.js";
import { atPointer, endpointOf, names, readDoc, resolve, SPECS } from "./helpers.js";

describe("side effects from the HTTP method", () => {
  const table: [string, string][] = [
    ["listPets", "read"],
    ["getPet", "read"],
    ["headPet", "read"],
    ["optionsPet", "read"],
    ["createPet", "write"],
    ["replacePet", "write"],
    ["patchPet", "write"],
    ["deletePet", "destructive"],
  ];
  it.each(table)("%s is %s", async (name, effect) => {
    expect(endpointOf(await resolve(join(SPECS, "petstore-30.yaml")), name).effect).toBe(effect);
  });
});

describe("compatibility report", () => {
  const report: [string, string, "partial" | "unsupported"][] = [
    ["/components/schemas/HasExternal/properties/remote", "external-ref", "unsupported"],
    ["/paths/~1ext/get/responses/200/content/application~1json/schema", "external-ref", "unsupported"],
    ["/paths/~1ext-param/get/parameters/0", "external-ref", "unsupported"],
    ["/paths/~1ext-item", "external-ref", "unsupported"],
    ["/paths/~1composed/get/responses/200/content/application~1json/schema/oneOf", "composition", "partial"],
    [
      "/paths/~1merge/post/requestBody/content/application~1merge-patch+json/schema/allOf",
      "composition",
      "partial",
    ],
    [
      "/paths/~1composed/get/responses/200/content/application~1json/schema/discriminator",
      "discriminator",
      "partial",
    ],
    ["/paths/~1cookie-optional/get/parameters/0", "cookie-param", "unsupported"],
    ["/paths/~1cookie-required/get/parameters/0", "cookie-param", "unsupported"],
    ["/paths/~1upload/post/requestBody/content/multipart~1form-data/schema", "multipart-body", "unsupported"],
    ["/paths/~1upload-optional/post/requestBody/content", "non-json-body", "unsupported"],
    ["/paths/~1download/get/responses/200/content", "binary-response", "unsupported"],
    ["/paths/~1subscribe/post/callbacks", "callback", "unsupported"],
    ["/webhooks/newPet", "webhook", "unsupported"],
    ["/servers/0/variables", "server-variables", "partial"],
    ["/components/schemas/Node", "recursive-ref", "partial"],
    ["/paths/~1undeclared~1{id}/get", "undeclared-path-parameter", "unsupported"],
    ["/paths/~1odd-location/get/parameters/0/in", "parameter-location", "unsupported"],
  ];

  it("reports every partial or unsupported construct exactly once, with a pointer that resolves in the document", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    const got = result.compatibility.map((issue) => [issue.pointer, issue.construct, issue.level]);
    expect([...got].sort()).toEqual([...report].sort());
    const doc = readDoc("unsupported-31.yaml");
    for (const issue of result.compatibility) {
      expect([issue.pointer, atPointer(doc, issue.pointer) !== undefined]).toEqual([issue.pointer, true]);
      expect(issue.message.length).toBeGreaterThan(10);
    }
  });

  it("leaves out operations that depend on an unsupported construct, and keeps the others", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    expect(names(result)).toEqual([
      "oddLocation",
      "composed",
      "cookieOptional",
      "uploadOptional",
      "subscribe",
      "tree",
      "bulk",
      "merge",
    ]);
    expect(endpointOf(result, "cookieOptional").parameters.map((p) => p.name)).toEqual(["q"]);
    expect(endpointOf(result, "uploadOptional").parameters).toEqual([]);
    expect(endpointOf(result, "oddLocation").parameters).toEqual([]);
    // Nothing unresolved is guessed: every $ref points into the artifact's own $defs, which hold it.
    const text = JSON.stringify(result.tools);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]*)"/g)) {
      expect(ref).toMatch(/^#\/\$defs\//);
      expect(result.defs).toHaveProperty([decodePointerToken(ref!.slice("#/$defs/".length))]);
    }
    expect(Object.keys(result.defs).sort()).toEqual(["Cat", "Dog", "Node"]);
  });

  it("keeps a recursive schema whole and derives fields only to the recursion", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    expect(result.defs.Node).toEqual({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    });
    expect(endpointOf(result, "tree").fields.map((f) => f.id)).toEqual(["name", "children"]);
  });
});
