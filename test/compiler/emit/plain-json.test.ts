/**
 * The artifact holds exactly what a reader of its file parses (docs/reference/formats.md, "Artifact"):
 * emitArtifact keeps a source's result as it is only when it is plain JSON data already, and a result
 * with anything JSON would change (an undefined member, -0, NaN, a Date) is still turned into what the
 * file says.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitArtifact } from "../../../compiler/emit/artifact.js";
import { isPlainJson } from "../../../compiler/emit/plain-json.js";
import type { SourceResult } from "../../../compiler/sources/types.js";
import { resolve, SPECS } from "../sources/openapi/helpers.js";

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("isPlainJson", () => {
  it.each<[string, unknown]>([
    ["null", null],
    ["a string", "x"],
    ["a finite number", 1.5],
    ["zero", 0],
    ["a boolean", false],
    ["nested objects and arrays", { a: [1, { b: null, c: ["d"] }], e: {} }],
    ["an own __proto__ key, as JSON.parse makes it", JSON.parse('{"__proto__":{"a":1}}')],
    [
      "a shared (not cyclic) object",
      (() => {
        const shared = { a: 1 };
        return { x: shared, y: [shared, shared] };
      })(),
    ],
  ])("%s is plain", (_name, value) => {
    expect(isPlainJson(value)).toBe(true);
    expect(roundTrip(value)).toEqual(value);
  });

  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const extraKey = Object.assign([1, 2], { note: "x" });
  const hidden = { a: 1 };
  Object.defineProperty(hidden, "b", { value: 2, enumerable: false });
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  let deep: unknown = 1;
  for (let i = 0; i < 5000; i++) deep = [deep];

  it.each<[string, unknown]>([
    ["undefined", undefined],
    ["a member that is undefined", { a: undefined }],
    ["an array item that is undefined", [undefined]],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-0", -0],
    ["a function", { f: () => 1 }],
    ["a bigint", 1n],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    [
      "a class instance",
      new (class Point {
        x = 1;
      })(),
    ],
    ["an object without a prototype", Object.create(null) as object],
    ["a symbol-keyed member", { [Symbol("s")]: 1 }],
    ["a non-enumerable member", hidden],
    ["a toJSON member", { toJSON: "x" }],
    ["a sparse array", sparse],
    ["an array with another key", extraKey],
    ["a cycle", cyclic],
    ["nesting deeper than the limit", deep],
  ])("%s is not plain", (_name, value) => {
    expect(isPlainJson(value)).toBe(false);
  });
});

describe("emitArtifact", () => {
  it("keeps a plain result's values and writes the file a reader parses back to the artifact", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    expect(isPlainJson(result.tools)).toBe(true);
    const { artifact, text } = emitArtifact("pets", "openapi", result);
    // Not copied: the artifact holds the result's own tool objects.
    expect(artifact.tools).toBe(result.tools);
    expect(JSON.parse(text)).toEqual(artifact);
    expect(Object.getPrototypeOf(artifact.$defs)).toBe(Object.prototype);
  });

  it("turns a result JSON would change into what its file says, with the same bytes as the plain one", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const plain = emitArtifact("pets", "openapi", result);
    const tool = result.tools[0]!;
    const endpoint = tool.endpoints[0]!;
    // The same result, but with members a JSON file cannot hold: an undefined member and a Date
    // (which JSON writes as its ISO string).
    const altered: SourceResult = {
      ...result,
      tools: [
        {
          ...tool,
          endpoints: [{ ...endpoint, extra: undefined } as typeof endpoint, ...tool.endpoints.slice(1)],
        },
      ],
      compatibility: [...result.compatibility, { when: new Date(0) } as never],
    };
    const { artifact, text } = emitArtifact("pets", "openapi", altered);
    expect(artifact.tools).not.toBe(altered.tools);
    expect(JSON.parse(text)).toEqual(artifact);
    expect(Object.hasOwn(artifact.tools[0]!.endpoints[0]!, "extra")).toBe(false);
    expect(artifact.compatibility.at(-1)).toEqual({ when: "1970-01-01T00:00:00.000Z" });
    // Apart from the added finding, the file is the plain result's, byte for byte.
    const withoutFinding = emitArtifact("pets", "openapi", {
      ...altered,
      compatibility: result.compatibility,
    });
    expect(withoutFinding.text).toBe(plain.text);
  });
});
