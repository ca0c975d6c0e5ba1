/**
 * Schema Objects → JSON Schema 2020-12 with shared `$defs`.
 * Spec: OpenAPI 3.0.3 §4.7.24 (Schema Object: nullable, exclusiveMinimum as boolean, discriminator)
 * and OpenAPI 3.1.0 §4.8.24 (Schema Object = JSON Schema 2020-12 dialect).
 *
 * OAS 3.0 keywords are converted by ./oas30-schema.ts; this module rewrites local `$ref`s to
 * `#/$defs/<name>`, stores each referenced schema once, and records every partial or unsupported
 * construct with its JSON pointer.
 */
import type { CompatibilityIssue, JsonSchema } from "schemarouter/internal";
import { decodePointerToken, encodePointerToken } from "schemarouter/internal";
import { applyDiscriminator, type DiscriminatorContext } from "./discriminator.js";
import type { OpenApiVersion } from "./document.js";
import { EXTERNAL_DEFS_KEY, type RefusedRef } from "./external-refs.js";
import { convertOas30Schema } from "./oas30-schema.js";
import { AccessDirections } from "./read-write-only.js";
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_SINGLE } from "./schema-keywords.js";

type Node = Record<string, unknown>;

/** Thrown when a contract depends on something that cannot be resolved; the endpoint is left out. */
export class UnsupportedConstruct extends Error {
  constructor(readonly issue: CompatibilityIssue) {
    super(issue.message);
  }
}

/** Vendor extensions that carry meaning for schemarouter and are kept. */
const KEPT_EXTENSIONS = new Set(["x-unit"]);

const COMPOSITIONS = ["oneOf", "anyOf", "allOf"];
const MAP_KEYS: ReadonlySet<string> = new Set(SUBSCHEMA_MAPS);
const LIST_OR_SINGLE: readonly string[] = [...SUBSCHEMA_LISTS, ...SUBSCHEMA_SINGLE];
const LIST_OR_SINGLE_KEYS: ReadonlySet<string> = new Set(LIST_OR_SINGLE);

export class SchemaConverter {
  /** Null prototype: a definition named `constructor` or `__proto__` is a definition like any other. */
  readonly defs: Record<string, JsonSchema> = Object.create(null) as Record<string, JsonSchema>;
  private readonly names = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  private readonly edges = new Map<string, Set<string>>();
  private readonly failed = new Map<string, UnsupportedConstruct>();
  /** Request and response views of converted schemas (readOnly / writeOnly properties). */
  readonly access = new AccessDirections(this.defs, (base) => this.reserveName(base));

  constructor(
    /** Resolves a local `#/...` reference (json-schema-ref-parser's $Refs.get); undefined when missing. */
    readonly lookup: (ref: string) => unknown,
    private readonly version: OpenApiVersion,
    private readonly report: (issue: CompatibilityIssue) => void,
    /**
     * Set when the source's external refs are on (external-refs.ts bundled the document): the
     * references it refused, by the marker `$ref` that replaced each.
     */
    private readonly refused?: ReadonlyMap<string, RefusedRef>,
  ) {}

  /** Converts the schema found at `pointer` (already looked up as `schema`). */
  convert(schema: unknown, pointer: string, owner?: string): JsonSchema {
    if (schema === true || schema === false) return schema;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return {};
    this.inspect(schema as Node, pointer);
    // Not copied first (3.1): rewrite builds every schema node anew and leaves its input as it is.
    const converted =
      this.version === "3.0"
        ? convertOas30Schema(schema as Node, { keepAccess: true, keepDiscriminator: true })
        : (schema as Node);
    return this.rewrite(converted, pointer, owner) as JsonSchema;
  }

  /**
   * Resolves a Reference Object that points at a non-schema object (parameter, request body,
   * response, path item). External and dangling references throw: the operation is left out.
   */
  resolveObject(ref: string, pointer: string, what: string): Node {
    this.checkRefused(ref, pointer);
    if (!ref.startsWith("#")) {
      throw new UnsupportedConstruct({
        pointer,
        construct: "external-ref",
        level: "unsupported",
        message: `${what} reference ${ref} is external (${this.externalNote(ref)}); the operation using it is left out.`,
      });
    }
    const target = this.lookup(ref);
    if (target === null || typeof target !== "object" || Array.isArray(target)) {
      throw new UnsupportedConstruct({
        pointer,
        construct: "unresolved-ref",
        level: "unsupported",
        message: `${what} reference ${ref} does not resolve in the document; the operation using it is left out.`,
      });
    }
    return target as Node;
  }

  /** Names of definitions that take part in a reference cycle (reported as recursive refs). */
  recursiveDefinitions(): string[] {
    const cyclic = new Set<string>();
    for (const start of this.edges.keys()) {
      const stack = [...(this.edges.get(start) ?? [])];
      const seen = new Set<string>();
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (next === start) {
          cyclic.add(start);
          break;
        }
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(this.edges.get(next) ?? []));
      }
    }
    return [...cyclic].sort();
  }

  /** JSON pointer (not the `#` URI fragment) of the document schema a definition was made from. */
  pointerOf(defName: string): string | undefined {
    for (const [ref, name] of this.names) if (name === defName) return ref.slice(1);
    return undefined;
  }

  private rewrite(node: unknown, pointer: string, owner: string | undefined): unknown {
    if (Array.isArray(node))
      return node.map((item, index) => this.rewrite(item, `${pointer}/${index}`, owner));
    if (node === null || typeof node !== "object") return node;
    const record = node as Node;
    if (typeof record.$ref === "string" && this.version === "3.0") {
      // OAS 3.0: properties next to a Reference Object are ignored (§4.7.23).
      return { $ref: this.reference(record.$ref, pointer, owner) };
    }
    const out: Node = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === "$ref" && typeof value === "string") {
        out.$ref = this.reference(value, pointer, owner);
      } else if (MAP_KEYS.has(key) && value !== null && typeof value === "object") {
        const map: Node = {};
        for (const [name, child] of Object.entries(value as Node)) {
          // Defined, not assigned: a property named `__proto__` stays a property (never the prototype).
          Object.defineProperty(map, name, {
            value: this.rewrite(child, `${pointer}/${key}/${encodePointerToken(name)}`, owner),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        out[key] = map;
      } else if (LIST_OR_SINGLE_KEYS.has(key)) {
        out[key] = this.rewrite(value, `${pointer}/${key}`, owner);
      } else if (key.startsWith("x-") && !KEPT_EXTENSIONS.has(key)) {
        // Vendor extensions are descriptive and may hold non-schema data (even stray $refs): dropped.
      } else {
        out[key] = value;
      }
    }
    if (record.discriminator !== undefined)
      return applyDiscriminator(record, out, pointer, this.discriminatorContext(pointer, owner));
    return out;
  }

  private discriminatorContext(pointer: string, owner: string | undefined): DiscriminatorContext {
    return {
      reference: (ref) => this.reference(ref, `${pointer}/discriminator`, owner),
      exists: (ref) => this.refused?.has(ref) !== true && this.lookup(ref) !== undefined,
      definition: (ref) => this.defs[ref.slice("#/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~")],
      report: this.report,
    };
  }

  /** Throws the report of a reference external-refs.ts refused. */
  private checkRefused(ref: string, pointer: string): void {
    const refused = this.refused?.get(ref);
    if (refused !== undefined)
      throw new UnsupportedConstruct({
        pointer,
        construct: refused.construct,
        level: "unsupported",
        message: `${refused.message}; the operation using it is left out.`,
      });
  }

  /** Why an unresolved reference was not followed (a local `#anchor` reads as it always has). */
  private externalNote(ref: string): string {
    return this.refused === undefined || ref.startsWith("#") ? "external refs are off" : "not followed";
  }

  private reference(ref: string, pointer: string, owner: string | undefined): string {
    this.checkRefused(ref, pointer);
    if (!ref.startsWith("#/")) {
      throw new UnsupportedConstruct({
        pointer,
        construct: "external-ref",
        level: "unsupported",
        message: `external reference ${ref} is not resolved (${this.externalNote(ref)}); the operation using it is left out.`,
      });
    }
    const name = this.defName(ref);
    if (owner !== undefined) {
      let set = this.edges.get(owner);
      if (set === undefined) {
        set = new Set();
        this.edges.set(owner, set);
      }
      set.add(name);
    }
    const failure = this.failed.get(name);
    if (failure !== undefined) throw failure;
    if (!Object.hasOwn(this.defs, name)) {
      const target = this.lookup(ref);
      if (target === undefined) {
        throw new UnsupportedConstruct({
          pointer,
          construct: "unresolved-ref",
          level: "unsupported",
          message: `reference ${ref} does not resolve in the document; the operation using it is left out.`,
        });
      }
      this.defs[name] = {}; // placeholder breaks recursion while converting
      try {
        this.defs[name] = this.convert(target, ref.slice(1), name);
      } catch (error) {
        delete this.defs[name];
        if (error instanceof UnsupportedConstruct) this.failed.set(name, error);
        throw error;
      }
    }
    return `#/$defs/${encodePointerToken(name)}`;
  }

  /** A definition name not taken yet, `base` or `base_2`, `base_3`, … */
  reserveName(base: string): string {
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}_${i}`;
    this.usedNames.add(name);
    return name;
  }

  private defName(ref: string): string {
    const existing = this.names.get(ref);
    if (existing !== undefined) return existing;
    const tokens = ref.slice(2).split("/").map(decodePointerToken);
    // Component schemas keep their names; bundled external objects the stable names they were given.
    const base =
      tokens.length === 3 && tokens[0] === "components" && tokens[1] === "schemas"
        ? tokens[2]!
        : tokens.length === 2 && tokens[0] === EXTERNAL_DEFS_KEY
          ? tokens[1]!
          : tokens.join("_").replace(/[^A-Za-z0-9_.-]/g, "_");
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}_${i}`;
    this.usedNames.add(name);
    this.names.set(ref, name);
    return name;
  }

  /** Reports composition, discriminators and other partially supported keywords of one node tree. */
  private inspect(node: Node, pointer: string): void {
    for (const key of COMPOSITIONS) {
      if (Array.isArray(node[key])) {
        this.report({
          pointer: `${pointer}/${key}`,
          construct: "composition",
          level: "partial",
          message: `${key} is validated as JSON Schema; planning and fields only see ${key === "allOf" ? "merged properties" : "the declared schema, not its branches"}.`,
        });
      }
    }
    for (const key of SUBSCHEMA_MAPS) {
      const map = node[key];
      if (map !== null && typeof map === "object" && !Array.isArray(map)) {
        for (const [name, child] of Object.entries(map as Node)) {
          if (child !== null && typeof child === "object" && !("$ref" in (child as Node))) {
            this.inspect(child as Node, `${pointer}/${key}/${encodePointerToken(name)}`);
          }
        }
      }
    }
    for (const key of LIST_OR_SINGLE) {
      const value = node[key];
      if (value === undefined) continue;
      const items = Array.isArray(value) ? value : [value];
      items.forEach((child, index) => {
        if (
          child !== null &&
          typeof child === "object" &&
          !Array.isArray(child) &&
          !("$ref" in (child as Node))
        ) {
          this.inspect(
            child as Node,
            Array.isArray(value) ? `${pointer}/${key}/${index}` : `${pointer}/${key}`,
          );
        }
      });
    }
  }
}
