/**
 * json-schema-to-typescript over the pairs' schemas: one root object schema with one required member
 * per pair, compiled once, so `Root["<key>"]` is the library's type for that pair's schema. The
 * options that are not presentation (`additionalProperties`, `strictIndexSignatures`,
 * `unknownAny`) are set to the bindings' documented choices: an object schema without
 * `additionalProperties` is closed, map values may be undefined, and an untyped value is `unknown`.
 */
import { compile, type Options } from "json-schema-to-typescript";
import type { Pair } from "./pairs.js";

export const ROOT = "Root";

export const OPTIONS: Partial<Options> = {
  additionalProperties: false,
  strictIndexSignatures: true,
  unknownAny: true,
  format: false,
  bannerComment: "",
};

export async function theirModule(pairs: readonly Pair[]): Promise<string> {
  const root = {
    type: "object",
    additionalProperties: false,
    required: pairs.map((pair) => pair.key),
    properties: Object.fromEntries(pairs.map((pair) => [pair.key, pair.theirs])),
  };
  return compile(root as Parameters<typeof compile>[0], ROOT, OPTIONS);
}
