/**
 * canonicalJson's native fast path (`JSON.stringify` for values already in canonical key order) is
 * byte-identical to the plain RFC 8785 writer it replaced, for every JSON value and every odd input
 * (integer-like keys, undefined members, holes, -0, non-plain objects), and refuses the same values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, digestJson, sha256 } from "../../../runtime/format/fingerprint.js";

/** The reference writer (the implementation before the fast path), kept verbatim. */
function reference(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join("");
}

function write(value: unknown, out: string[]): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      out.push(Object.is(value, -0) ? "0" : String(value));
      return;
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "object": {
      if (Array.isArray(value)) {
        out.push("[");
        value.forEach((item, index) => {
          if (index > 0) out.push(",");
          write(item === undefined ? null : item, out);
        });
        out.push("]");
        return;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      out.push("{");
      keys.forEach((key, index) => {
        if (index > 0) out.push(",");
        out.push(JSON.stringify(key), ":");
        write(record[key], out);
      });
      out.push("}");
      return;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialize a ${typeof value}`);
  }
}

/** Deep copy with every object's keys in code-unit order (what a canonical artifact parses into). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

const keys = fc.oneof(
  fc.string(),
  fc.constantFrom("0", "1", "10", "9", "a", "$ref", "__proto__x", "é", "😀"),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(keys, fc.oneof(tie("value"), fc.constant(undefined)), { maxKeys: 5 }),
  ),
})).value;

describe("canonicalJson", () => {
  it("matches the reference writer on arbitrary JSON values, in insertion and in sorted key order", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
        expect(canonicalJson(sorted(value))).toBe(reference(value));
        expect(canonicalJson(JSON.parse(reference(value)))).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  const sparse: unknown[] = [1, 2, 3];
  delete sparse[1];
  const leading: unknown[] = [];
  leading[1] = 1;
  const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [2] });
  it.each([
    ["integer-like keys", { "1": 1, "10": 2, "9": 3, a: 4 }],
    ["undefined members and items", { a: undefined, b: [undefined, 1], c: { d: undefined } }],
    ["negative zero", { a: -0, b: [-0] }],
    ["a sparse array", { a: sparse }],
    ["a leading hole", leading],
    ["a null-prototype object", nullProto],
    ["a Date (not a plain object)", { at: new Date(0) }],
    ["escapes", { "\u2028": "\u0000\u001f", '"': "\\" }],
  ])("matches the reference writer for %s", (_, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it.each([
    ["NaN", { a: Number.NaN }],
    ["Infinity in an array", [Number.POSITIVE_INFINITY]],
    ["a function member", { a: () => 1 }],
    ["a bigint", { a: 1n }],
    ["a symbol", [Symbol("x")]],
    ["undefined at the top", undefined],
  ])("throws a TypeError for %s, as the reference writer does", (_, value) => {
    expect(() => reference(value)).toThrow(TypeError);
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it("digests the canonical text", () => {
    expect(digestJson({ b: 1, a: [true, null] })).toBe(sha256('{"a":[true,null],"b":1}'));
  });
});

describe("against an independent RFC 8785 implementation (canonicalize)", () => {
  // Strings of arbitrary UTF-16 code units: valid pairs, lone high and low surrogates, controls.
  const codeUnits = fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 6,
  });
  const { json } = fc.letrec<{ json: unknown }>((tie) => ({
    json: fc.oneof(
      { depthSize: "small" },
      codeUnits,
      fc.double({ noDefaultInfinity: true, noNaN: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("json"), { maxLength: 4 }),
      fc.dictionary(codeUnits, tie("json"), { maxKeys: 4 }),
    ),
  }));

  it("serializes every JSON value identically, and rejects exactly what it rejects", async () => {
    const { default: canonicalize } = await import("canonicalize");
    fc.assert(
      fc.property(json, (value) => {
        let theirs: string | Error;
        try {
          theirs = canonicalize(value) as string;
        } catch (error) {
          theirs = error as Error;
        }
        if (theirs instanceof Error) expect(() => canonicalJson(value)).toThrow(TypeError);
        else expect(canonicalJson(value)).toBe(theirs);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["a lone high surrogate in a value", { a: "x\uD800" }],
    ["a lone low surrogate in a value", ["\uDC00y"]],
    ["a lone surrogate in a key", { "\uDBFF": 1 }],
    ["a reversed pair", "\uDC00\uD800"],
  ])("rejects %s", (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(/lone surrogate/);
  });

  it("keeps valid pairs and strings that spell an escape literally", () => {
    expect(canonicalJson({ k: "\uD83D\uDE00" })).toBe('{"k":"\uD83D\uDE00"}');
    expect(canonicalJson(["\\ud800"])).toBe('["\\\\ud800"]');
  });
});
