/**
 * Fingerprints assembled from their parts (runtime/format/fingerprint.ts) are the digests of the
 * canonical documents the formats define (docs/reference/formats.md): the tool fingerprint over
 * { tool, endpoints } and shared closures of definitions.
 */
import { describe, expect, it } from "vitest";
import { DefinitionSet, digestJson, toolFingerprint } from "../../../runtime/format/fingerprint.js";
import type { ToolSpec } from "../../../runtime/model/specs.js";

const tool = (extra: Record<string, unknown>): ToolSpec =>
  ({
    name: "weather",
    namespace: "wx",
    provider: "Ümlaut Wetter \u2028 «quoted»",
    accessMode: "read",
    remote: true,
    endpoints: [],
    metadata: { title: "not fingerprinted" },
    ...extra,
  }) as unknown as ToolSpec;

describe("toolFingerprint", () => {
  it.each([
    ["no endpoints", tool({}), []],
    ["two endpoints", tool({ description: "a\nb" }), ["sha256:aa", "sha256:bb"]],
    [
      "many endpoints",
      tool({ zeta: { b: 1, a: [2, { d: null, c: true }] } }),
      Array.from({ length: 5000 }, (_, i) => `sha256:${i}`),
    ],
  ])("equals the digest of { tool, endpoints } canonically (%s)", (_name, spec, endpoints) => {
    const {
      metadata: _metadata,
      endpoints: _endpoints,
      ...contract
    } = spec as unknown as Record<string, unknown>;
    expect(toolFingerprint(spec, endpoints)).toBe(digestJson({ tool: contract, endpoints }));
  });

  it("ignores metadata and refuses what canonical JSON refuses", () => {
    expect(toolFingerprint(tool({ metadata: { other: 1 } }), ["sha256:aa"])).toBe(
      toolFingerprint(tool({}), ["sha256:aa"]),
    );
    expect(() => toolFingerprint(tool({ description: "\uD800" }), [])).toThrow(TypeError);
    expect(() => toolFingerprint(tool({}), ["\uDC00"])).toThrow(TypeError);
  });
});

describe("DefinitionSet closures", () => {
  const defs = new DefinitionSet({
    A: { $ref: "#/$defs/B" },
    B: { properties: { c: { $ref: "#/$defs/C" }, a: { $ref: "#/$defs/A" } } },
    C: { type: "string" },
    D: { type: "integer" },
  });

  it("are the transitive closure, sorted, shared for the same direct names in any order", () => {
    expect(defs.closureOf(["A"])).toEqual(["A", "B", "C"]);
    expect(defs.closureOf(["D", "C"])).toEqual(["C", "D"]);
    const first = defs.closureOfNames(["D", "A"]);
    expect(first).toEqual(["A", "B", "C", "D"]);
    expect(defs.closureOfNames(new Set(["A", "D"]))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // closureOf hands out a copy the caller may change.
    const copy = defs.closureOf(["A", "D"]);
    copy.pop();
    expect(defs.closureOfNames(["A", "D"])).toEqual(["A", "B", "C", "D"]);
  });

  it("fail on an unknown definition every time", () => {
    expect(() => defs.closureOfNames(["Missing"])).toThrow(/unknown shared definition/);
    expect(() => defs.closureOfNames(["Missing"])).toThrow(/unknown shared definition/);
  });
});
