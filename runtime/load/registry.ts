/**
 * The registry: a frozen, versioned catalog of the tool contracts that were loaded and verified, with
 * their fingerprints and shared definitions. Replacing a tool produces a new version.
 */
import { LoadError } from "../errors/errors.js";
import { DefinitionSet, directDefRefsInText, fingerprintTool } from "../format/fingerprint.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, JsonSchema, SourceKind, ToolSpec } from "../model/specs.js";

export interface RegisteredTool {
  readonly tool: ToolSpec;
  readonly source: string;
  readonly sourceKind: SourceKind;
  readonly fingerprint: string;
  readonly endpointFingerprints: ReadonlyMap<string, string>;
  readonly endpoints: ReadonlyMap<string, EndpointSpec>;
  readonly defs: DefinitionSet;
  /** Per endpoint: digest of the remote definition as locked (MCP). */
  readonly remoteDigests: ReadonlyMap<string, string>;
}

export interface RegistryEntry {
  readonly source: string;
  readonly tool: ToolSpec;
  readonly endpoint: EndpointSpec;
  readonly toolFingerprint: string;
  readonly endpointFingerprint: string;
}

export interface ToolRegistration {
  readonly tool: ToolSpec;
  readonly source: string;
  readonly sourceKind: SourceKind;
  readonly defs: Readonly<Record<string, JsonSchema>> | DefinitionSet;
  readonly remoteDigests?: Readonly<Record<string, string>>;
}

/** Names that would reach an object's prototype machinery when used as a key. */
const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Refuses contracts whose parameter names or field paths could address prototype machinery. */
function assertSafeNames(tool: ToolSpec): void {
  for (const endpoint of tool.endpoints) assertSafeEndpoint(tool.name, endpoint);
}

/** The per-endpoint check of `assertSafeNames` (also run on each lazily loaded endpoint). */
export function assertSafeEndpoint(tool: string, endpoint: EndpointSpec): void {
  const bad =
    endpoint.parameters.find(
      // Wire names only become keys when a body is assembled: there only `__proto__` is dangerous.
      (parameter) => FORBIDDEN_KEYS.has(parameter.name) || parameter.wireName === "__proto__",
    )?.name ??
    endpoint.fields.find(
      (field) =>
        hasForbiddenSegment(field.path) ||
        (field.resultPath !== undefined &&
          (hasForbiddenSegment(field.resultPath) || !sameWildcards(field.path, field.resultPath))),
    )?.id;
  if (bad !== undefined) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${tool}.${endpoint.name}: "${bad}" uses a reserved name (__proto__, prototype, constructor) as a parameter or path segment, or its "*" segments differ between path and resultPath; such contracts are refused.`,
      { tool, endpoint: endpoint.name, name: bad },
    );
  }
}

function hasForbiddenSegment(path: readonly string[]): boolean {
  for (const segment of path) if (FORBIDDEN_KEYS.has(segment)) return true;
  return false;
}

/** True when both paths have their `*` segments at the same positions (and equally many). */
function sameWildcards(path: readonly string[], resultPath: readonly string[]): boolean {
  const length = Math.max(path.length, resultPath.length);
  for (let index = 0; index < length; index++) {
    if ((path[index] === "*") !== (resultPath[index] === "*")) return false;
  }
  return true;
}

export function registerTool(registration: ToolRegistration): RegisteredTool {
  assertSafeNames(registration.tool);
  const defs =
    registration.defs instanceof DefinitionSet
      ? registration.defs
      : new DefinitionSet(deepFreeze(registration.defs));
  const prints = fingerprintTool(registration.tool, defs);
  const endpoints = new Map<string, EndpointSpec>();
  for (const endpoint of registration.tool.endpoints) endpoints.set(endpoint.name, endpoint);
  return Object.freeze({
    tool: deepFreeze(registration.tool),
    source: registration.source,
    sourceKind: registration.sourceKind,
    fingerprint: prints.tool,
    endpointFingerprints: prints.endpoints,
    endpoints,
    defs,
    remoteDigests: new Map(Object.entries(registration.remoteDigests ?? {})),
  });
}

/** Names of tools registered before their contract is read (deferredTool). */
const deferredNames = new WeakMap<RegisteredTool, string>();

/** What is known of a tool from the lock and the retrieval index, before its artifact is read. */
export type KnownTool = Omit<RegisteredTool, "tool" | "endpoints" | "defs">;

/**
 * A registered tool whose contract (`tool`, `endpoints`, `defs`) is read and verified by `materialize`
 * on first access (deferred-source.ts); name, source, fingerprints and remote digests are the lock's.
 */
export function deferredTool(
  name: string,
  known: KnownTool,
  materialize: () => RegisteredTool,
): RegisteredTool {
  const registered: RegisteredTool = Object.freeze({
    source: known.source,
    sourceKind: known.sourceKind,
    fingerprint: known.fingerprint,
    // Read through, so a caller may compute these maps on first access.
    get endpointFingerprints() {
      return known.endpointFingerprints;
    },
    get remoteDigests() {
      return known.remoteDigests;
    },
    get tool() {
      return materialize().tool;
    },
    get endpoints() {
      return materialize().endpoints;
    },
    get defs() {
      return materialize().defs;
    },
  });
  deferredNames.set(registered, name);
  return registered;
}

/** A tool's name without reading a deferred tool's contract. */
function nameOf(registered: RegisteredTool): string {
  return deferredNames.get(registered) ?? registered.tool.name;
}

export class Registry {
  readonly version: number;
  private readonly tools: ReadonlyMap<string, RegisteredTool>;
  private entryList: readonly RegistryEntry[] | undefined;

  constructor(tools: Iterable<RegisteredTool>, version = 1) {
    const map = new Map<string, RegisteredTool>();
    for (const registered of tools) {
      const name = nameOf(registered);
      if (map.has(name)) throw new TypeError(`duplicate tool name "${name}"`);
      map.set(name, registered);
    }
    this.tools = map;
    this.version = version;
  }

  get(tool: string): RegisteredTool | undefined {
    return this.tools.get(tool);
  }

  toolNames(): string[] {
    return [...this.tools.keys()];
  }

  registeredTools(): IterableIterator<RegisteredTool> {
    return this.tools.values();
  }

  /**
   * Every endpoint of every tool, in registration order (tools) and declaration order (endpoints).
   * Building the list touches no endpoint and no tool contract: each entry's `tool` and `endpoint` are
   * read when first accessed (for a loaded artifact, that is when the endpoint is parsed and verified,
   * and for a deferred source, when its artifact is read and verified).
   */
  entries(): readonly RegistryEntry[] {
    if (this.entryList === undefined) {
      const list: RegistryEntry[] = [];
      for (const registered of this.tools.values()) {
        for (const [name, endpointFingerprint] of registered.endpointFingerprints) {
          const entry = {
            source: registered.source,
            toolFingerprint: registered.fingerprint,
            endpointFingerprint,
          };
          Object.defineProperty(entry, "tool", { enumerable: true, get: () => registered.tool });
          Object.defineProperty(entry, "endpoint", {
            enumerable: true,
            get: () => registered.endpoints.get(name)!,
          });
          list.push(Object.freeze(entry) as RegistryEntry);
        }
      }
      this.entryList = Object.freeze(list);
    }
    return this.entryList;
  }

  /** A new registry version with `registered` added or replacing the tool of the same name. */
  withTool(registered: RegisteredTool): Registry {
    const next = new Map(this.tools);
    next.set(nameOf(registered), registered);
    return new Registry(next.values(), this.version + 1);
  }

  /**
   * The effective schema of an endpoint: its own schema plus the shared definitions it uses, as one
   * self-contained JSON Schema document.
   */
  effectiveSchema(tool: string, endpoint: string, which: "input" | "output"): JsonSchema {
    const registered = this.tools.get(tool);
    const spec = registered?.endpoints.get(endpoint);
    if (registered === undefined || spec === undefined) throw new TypeError(`unknown ${tool}.${endpoint}`);
    return effectiveSchema(which === "input" ? spec.inputSchema : spec.outputSchema, registered.defs);
  }
}

export function effectiveSchema(schema: JsonSchema, defs: DefinitionSet): JsonSchema {
  // The references read off the schema's JSON text (one native serialization, no walk in JS).
  const used = defs.closureOfNames(directDefRefsInText(JSON.stringify(schema) ?? ""));
  if (used.length === 0 || typeof schema === "boolean") return schema;
  const $defs: Record<string, JsonSchema> = {};
  for (const name of used) $defs[name] = defs.defs[name]!;
  return { ...schema, $defs };
}
