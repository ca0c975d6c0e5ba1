/**
 * JSON Schema `format` checks and `uniqueItems` in time linear in the value (docs/runtime/execution-boundary.md,
 * "Validation cost"). Remote schemas choose which formats apply to remote responses, and ajv-formats
 * checks some of them with backtracking regular expressions (`url`: seconds on 60 KB), while ajv's own
 * `uniqueItems` compares items pairwise (a 229 KB array of objects took 9–13 s). Both run
 * synchronously, where no deadline can interrupt them. So:
 * - every regular-expression format runs on RE2 (linear); the three whose expressions use lookaround
 *   (`url`, `hostname`, `duration`) are rewritten as a lookaround-free expression plus plain checks;
 * - function formats (dates, times, `uri`, `regex`, numbers) keep ajv-formats' own code, which is
 *   linear, and `regex` (which compiles the string as a pattern) is bounded in length;
 * - `uniqueItems` hashes each item's canonical JSON once, instead of comparing every pair.
 */
import { createRequire } from "node:module";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { canonicalJson } from "../format/fingerprint.js";

type FormatValidator = (value: string) => boolean;
type Re2Module = typeof import("re2js");
type FormatsModule = { fullFormats: Record<string, unknown> };

/** Longest string the `regex` format compiles (it builds a RegExp from the value). */
const MAX_REGEX_FORMAT_LENGTH = 4096;

export type FormatDefinition = Parameters<Ajv2020["addFormat"]>[1];

/**
 * The format definitions, built once per thread: compiling the RE2 expressions took longer than the
 * rest of creating a validator (the compiler creates one per source), so each is compiled on its
 * first use. The definitions hold no other state, so every ajv instance of the thread shares them.
 */
let linearFormats: ReadonlyMap<string, FormatDefinition> | undefined;

export function addLinearFormats(ajv: Ajv2020): void {
  for (const [name, format] of linearFormatDefinitions()) ajv.addFormat(name, format);
}

/**
 * The format definitions addLinearFormats gives ajv, by name (the compiler's example check applies
 * them the way ajv does; docs/sources/openapi-overlays.md, "Examples checked at compile").
 */
export function linearFormatDefinitions(): ReadonlyMap<string, FormatDefinition> {
  linearFormats ??= buildLinearFormats();
  return linearFormats;
}

function buildLinearFormats(): ReadonlyMap<string, FormatDefinition> {
  const require = createRequire(import.meta.url);
  const { fullFormats } = require("ajv-formats/dist/formats") as FormatsModule;
  const { RE2JS } = require("re2js") as Re2Module;
  const formats = new Map<string, FormatDefinition>();
  // Each expression is compiled on its first use: most schemas use a few formats, if any.
  const linear = (source: string, flags: string): FormatValidator => {
    let compiled: ReturnType<typeof RE2JS.compile> | undefined;
    return (value) => {
      compiled ??= RE2JS.compile(source, flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0);
      return compiled.matches(value);
    };
  };
  for (const [name, format] of Object.entries(fullFormats)) {
    const regex = format instanceof RegExp ? format : undefined;
    if (regex !== undefined && !REWRITTEN.has(name)) {
      formats.set(name, { type: "string", validate: linear(regex.source, regex.flags) });
    } else if (name === "regex" && typeof format === "function") {
      const compiles = format as FormatValidator;
      formats.set(name, {
        type: "string",
        validate: (value) => value.length <= MAX_REGEX_FORMAT_LENGTH && compiles(value),
      });
    } else if (!REWRITTEN.has(name)) {
      formats.set(name, format as FormatDefinition);
    }
  }
  // ajv-formats' hostname: `(?=.{1,253}\.?$)` plus labels; the length is checked directly.
  const labels = linear(
    "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$",
    "i",
  );
  formats.set("hostname", {
    type: "string",
    validate: (value) => value.replace(/\.$/, "").length <= 253 && value.length >= 1 && labels(value),
  });
  // ajv-formats' duration: `P(?!$)` (not "P" alone) and `T(?=\d)` (a time part is not empty).
  const duration = linear(
    "^P(?:(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?|(?:\\d+W)?)$",
    "",
  );
  formats.set("duration", {
    type: "string",
    validate: (value) => value !== "P" && !value.endsWith("T") && duration(value),
  });
  // ajv-formats' url: an absolute http, https or ftp URL. Its expression backtracks quadratically; the
  // WHATWG URL parser is linear. (It no longer refuses private-network hosts: format is a shape check.)
  formats.set("url", {
    type: "string",
    validate: (value) => /^(?:https?|ftp):\/\/[^\s/?#]/i.test(value) && !/\s/.test(value) && canParse(value),
  });
  return formats;
}

const REWRITTEN = new Set(["hostname", "duration", "url"]);

function canParse(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * `uniqueItems` by hashing: two items are equal JSON values exactly when their canonical JSON is equal
 * (RFC 8785 fixes key order and number spelling), so one pass over the items decides it.
 */
export function addLinearUniqueItems(ajv: Ajv2020): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: function uniqueItems(this: unknown, unique: boolean, data: readonly unknown[]): boolean {
      if (!unique) return true;
      const index = firstDuplicateItem(data);
      if (index === undefined) return true;
      (uniqueItems as { errors?: unknown[] }).errors = [
        {
          keyword: "uniqueItems",
          message: `must NOT have duplicate items (item ${index})`,
          params: { i: index },
        },
      ];
      return false;
    },
  });
}

/** The index of the first item equal (as JSON) to an earlier one, or undefined when all are unique. */
export function firstDuplicateItem(data: readonly unknown[]): number | undefined {
  if (data.length < 2) return undefined;
  const seen = new Set<string>();
  for (let index = 0; index < data.length; index++) {
    const key = safeCanonical(data[index]);
    if (seen.has(key)) return index;
    seen.add(key);
  }
  return undefined;
}

/** Canonical JSON, or a marker no other item can have when the item is not JSON (e.g. a lone surrogate). */
function safeCanonical(item: unknown): string {
  try {
    return canonicalJson(item);
  } catch {
    return `\u0000${Math.random()}`;
  }
}
