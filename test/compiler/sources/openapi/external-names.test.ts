/**
 * Stable `$defs` names for external `$ref` targets (compiler/sources/openapi/external-names.ts): the
 * shortest distinguishing tail of path and pointer, never a root component's name or an
 * Object.prototype member, and independent of the order the targets were found in.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ExternalTarget,
  externalDefNames,
} from "../../../../compiler/sources/openapi/external-names.js";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import { decodePointerToken } from "../../../../runtime/model/json-pointer.js";
import { tempProject } from "../../../helpers/project.js";
import { documentWith, writeTree } from "./external-refs-fixture.js";

const target = (key: string, pointer = ""): ExternalTarget => {
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(decodePointerToken);
  return { fullKey: `${key}#${pointer}`, key, tokens };
};

const table: [string, { given: ExternalTarget[]; reserved?: string[]; want: string[] }][] = [
  ["a file is named by its stem", { given: [target("components/schemas/Pet.yaml")], want: ["Pet"] }],
  [
    "a component pointer by the component's name",
    {
      given: [target("common.yaml", "/components/schemas/Error"), target("defs.json", "/$defs/Tag")],
      want: ["Error", "Tag"],
    },
  ],
  [
    "other pointers by their tokens",
    {
      given: [target("schemas.yaml", "/Pet"), target("paths.yaml", "/~1pets/get")],
      want: ["Pet", "_pets_get"],
    },
  ],
  [
    "clashing stems take their directories",
    {
      given: [target("v1/Pet.yaml"), target("v2/Pet.yaml"), target("Pet.json")],
      want: ["v1_Pet", "v2_Pet", "Pet"],
    },
  ],
  [
    "a root component's name is never taken",
    {
      given: [target("common.yaml", "/components/schemas/Error")],
      reserved: ["Error"],
      want: ["common_Error"],
    },
  ],
  [
    "what still clashes after sanitizing gets a suffix in key order",
    { given: [target("a_b.yaml"), target("a b.yaml")], want: ["a_b_2", "a_b"] },
  ],
  [
    "parent directories of URL paths",
    { given: [target("../shared/Pet.json"), target("Pet.json")], want: ["shared_Pet", "Pet"] },
  ],
];

describe("externalDefNames", () => {
  it.each(table)("%s", (_, { given, reserved = [], want }) => {
    const names = externalDefNames(given, new Set(reserved));
    expect(given.map((t) => names.get(t.fullKey))).toEqual(want);
  });

  it("does not depend on the order the targets were found in", () => {
    const given = table.flatMap(([, { given }]) => given);
    const expected = externalDefNames(given, new Set(["Error"]));
    for (let seed = 1; seed <= 20; seed++) {
      const shuffled = [...given].sort((a, b) => hash(a.fullKey, seed) - hash(b.fullKey, seed));
      expect(externalDefNames(shuffled, new Set(["Error"]))).toEqual(expected);
    }
    expect(new Set(expected.values()).size).toBe(expected.size);
  });
});

describe("names that are Object.prototype members", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("are never used, so every schema is stored and referenced intact", async () => {
    const project = tempProject("external-names");
    dirs.push(project.dir);
    writeTree(project.dir, {
      "openapi.yaml": documentWith({ a: { $ref: "constructor.yaml" }, b: { $ref: "__proto__.yaml" } }),
      "constructor.yaml": { type: "object", properties: { x: { type: "string" } } },
      "__proto__.yaml": { type: "object", properties: { y: { type: "integer" } } },
    });
    const result = await openapiAdapter.resolve(
      "refs",
      { kind: "openapi", location: "openapi.yaml", externalRefs: { enabled: true } },
      { cwd: project.dir, env: {}, allowInsecureHttp: false },
    );
    expect(Object.keys(result.defs).sort()).toEqual(["__proto___2", "constructor_2"]);
    expect(result.defs.constructor_2).toEqual({ type: "object", properties: { x: { type: "string" } } });
    // No definition became the map's prototype (the map itself may have none: null-prototype maps).
    expect([null, Object.prototype]).toContain(Object.getPrototypeOf(result.defs));
  });
});

function hash(text: string, seed: number): number {
  let h = seed;
  for (const char of text) h = (Math.imul(h, 31) + char.charCodeAt(0)) | 0;
  return h;
}
