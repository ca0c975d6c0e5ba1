/**
 * OpenRPC Reference Objects (OpenRPC 1.3 "Reference Object", "Components Object";
 * docs/sources/openrpc.md "References"): only local `#/...` references resolve, a chain of references
 * is followed at most MAX_REF_HOPS times, and a cycle or a dangling reference leaves the method using
 * it out. Schemas are resolved by the OpenAPI SchemaConverter (same rules, `#/$defs` in artifacts).
 */
import type { CompatibilityIssue } from "schemarouter/internal";
import { evaluatePointer, fragmentTokens } from "../openapi/external-pointer.js";
import { UnsupportedConstruct } from "../openapi/schema-object.js";

/** References followed to reach one object (a reference to a reference to …). */
export const MAX_REF_HOPS = 16;

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The value a local reference (`#/components/...`) points to in `doc`; undefined otherwise. */
export function lookupLocal(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/") && ref !== "#") return undefined;
  return evaluatePointer(doc, fragmentTokens(ref.slice(1)));
}

function unsupported(pointer: string, construct: string, message: string): UnsupportedConstruct {
  const issue: CompatibilityIssue = { pointer, construct, level: "unsupported", message };
  return new UnsupportedConstruct(issue);
}

/**
 * The object `value` is, following Reference Objects (`{ "$ref": "#/..." }`). Throws
 * UnsupportedConstruct for an external, dangling, cyclic or too long chain, or a non-object target.
 */
export function resolveObject(doc: unknown, value: unknown, pointer: string, what: string): Node {
  let current = value;
  const seen = new Set<string>();
  for (let hops = 0; isNode(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/"))
      throw unsupported(
        pointer,
        "external-ref",
        `${what} reference ${ref} is not local; only #/components/... references are resolved, so the method is left out.`,
      );
    if (seen.has(ref))
      throw unsupported(
        pointer,
        "ref-cycle",
        `${what} reference ${ref} refers back to itself; the method is left out.`,
      );
    if (hops >= MAX_REF_HOPS)
      throw unsupported(
        pointer,
        "ref-chain",
        `${what} references chain more than ${MAX_REF_HOPS} times; the method is left out.`,
      );
    seen.add(ref);
    current = lookupLocal(doc, ref);
    if (current === undefined)
      throw unsupported(
        pointer,
        "unresolved-ref",
        `${what} reference ${ref} does not resolve in the document; the method is left out.`,
      );
  }
  if (!isNode(current))
    throw unsupported(pointer, "invalid-object", `${what} is not an object; the method is left out.`);
  return current;
}
