/**
 * What retrieval reads of the endpoints a stored index ranks (docs/runtime/loading-and-verification.md,
 * "Candidates"): per endpoint position, a registry entry and its effective schemas. For a registry
 * loaded from deferred sources, each entry's tool and endpoint are read and verified one candidate at a
 * time (candidate-source.ts), so listing a candidate never reads its whole artifact; for a registry
 * whose artifacts were verified at load, they are the registry's own entries.
 */
import type { LockedSource, Lockfile } from "../format/lockfile.js";
import type { RetrievalIndexData } from "../format/retrieval-index.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, JsonSchema, ToolSpec } from "../model/specs.js";
import { CandidateSource } from "./candidate-source.js";
import { effectiveSchema, type RegisteredTool, type Registry, type RegistryEntry } from "./registry.js";
import { lazyList } from "./stored-index.js";
import type { VerifiedSource } from "./verified-source.js";

export interface CandidateViews {
  /** Per endpoint position of the index, its entry (nothing is read until `tool`/`endpoint` are). */
  readonly entries: readonly RegistryEntry[];
  /** The effective input or output schema of the endpoint at `index` (verifying it first). */
  effectiveSchema(index: number, which: "input" | "output"): JsonSchema;
}

/** Views over a registry whose artifacts were read and verified at load. */
export function registryViews(registry: Registry): CandidateViews {
  const entries = registry.entries();
  return {
    entries,
    effectiveSchema: (index, which) => {
      const entry = entries[index]!;
      return registry.effectiveSchema(entry.tool.name, entry.endpoint.name, which);
    },
  };
}

/** Views that read each candidate from its artifact on its own (a deferred load). */
export class StoredCandidates implements CandidateViews {
  readonly #data: RetrievalIndexData;
  readonly #lock: Lockfile;
  readonly #pathOf: (locked: LockedSource) => string;
  /** Index position of each tool's first endpoint (one more: the total). */
  readonly #toolFirst: Uint32Array;
  /** Index position of each source's first tool (one more: the total). */
  readonly #sourceFirst: Uint32Array;
  readonly #sources: (CandidateSource | undefined)[];
  #entries: readonly RegistryEntry[] | undefined;
  /** Effective schemas already built, by endpoint position (deep-frozen). */
  readonly #schemas = new Map<number, { input?: JsonSchema; output?: JsonSchema }>();

  readonly #verified: (source: string) => VerifiedSource | undefined;

  /**
   * `verified`: a source already read and verified whole (by a call, a plan, an embedder), whose
   * candidates are then taken from those verified bytes instead of the file.
   */
  constructor(
    data: RetrievalIndexData,
    lock: Lockfile,
    pathOf: (locked: LockedSource) => string,
    verified: (source: string) => VerifiedSource | undefined,
  ) {
    this.#verified = verified;
    this.#data = data;
    this.#lock = lock;
    this.#pathOf = pathOf;
    this.#toolFirst = new Uint32Array(data.tools.length + 1);
    this.#sourceFirst = new Uint32Array(data.sources.length + 1);
    let endpoints = 0;
    let source = 0;
    data.tools.forEach((tool, t) => {
      this.#toolFirst[t] = endpoints;
      endpoints += tool.endpoints.length;
      while (source <= tool.source) this.#sourceFirst[source++] = t;
    });
    this.#toolFirst[data.tools.length] = endpoints;
    while (source <= data.sources.length) this.#sourceFirst[source++] = data.tools.length;
    this.#sources = new Array(data.sources.length);
  }

  get entries(): readonly RegistryEntry[] {
    // Each entry is made when first read (a ranking reads its candidates' only).
    this.#entries ??= lazyList(this.#toolFirst[this.#data.tools.length]!, (i) => new CandidateEntry(this, i));
    return this.#entries;
  }

  effectiveSchema(index: number, which: "input" | "output"): JsonSchema {
    const whole = this.#wholeTool(this.toolOf(index));
    if (whole !== undefined) {
      const spec = this.endpointAt(index);
      return effectiveSchema(which === "input" ? spec.inputSchema : spec.outputSchema, whole.defs);
    }
    const endpoint = this.endpointAt(index);
    let built = this.#schemas.get(index);
    if (built === undefined) {
      built = {};
      this.#schemas.set(index, built);
    }
    let schema = built[which];
    if (schema === undefined) {
      const defs = this.#sourceOf(this.toolOf(index)).defs();
      schema = deepFreeze(
        effectiveSchema(which === "input" ? endpoint.inputSchema : endpoint.outputSchema, defs),
      );
      built[which] = schema;
    }
    return schema;
  }

  /** The tool position of endpoint position `index`. */
  toolOf(index: number): number {
    const first = this.#toolFirst;
    let lo = 0;
    let hi = this.#data.tools.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  sourceName(tool: number): string {
    return this.#data.sources[this.#data.tools[tool]!.source]!.name;
  }

  lockedTool(tool: number) {
    const indexed = this.#data.tools[tool]!;
    return this.#lock.sources[this.sourceName(tool)]!.tools[indexed.name]!;
  }

  endpointName(index: number, tool: number): string {
    return this.#data.tools[tool]!.endpoints[index - this.#toolFirst[tool]!]!;
  }

  toolAt(tool: number): ToolSpec {
    return this.#wholeTool(tool)?.tool ?? this.#sourceOf(tool).tool(tool);
  }

  endpointAt(index: number): EndpointSpec {
    const tool = this.toolOf(index);
    const whole = this.#wholeTool(tool);
    if (whole !== undefined) return whole.endpoints.get(this.endpointName(index, tool))!;
    return this.#sourceOf(tool).endpoint(tool, index);
  }

  /** The registered tool of a source verified whole, if it is. */
  #wholeTool(tool: number): RegisteredTool | undefined {
    const verified = this.#verified(this.sourceName(tool));
    if (verified === undefined) return undefined;
    const name = this.#data.tools[tool]!.name;
    return verified.tools.find((registered) => registered.tool.name === name);
  }

  #sourceOf(tool: number): CandidateSource {
    const at = this.#data.tools[tool]!.source;
    let source = this.#sources[at];
    if (source === undefined) {
      const name = this.#data.sources[at]!.name;
      const locked = this.#lock.sources[name]!;
      const first = this.#sourceFirst[at]!;
      source = new CandidateSource(
        name,
        locked,
        this.#pathOf(locked),
        this.#data,
        at,
        first,
        this.#toolFirst.subarray(first, this.#sourceFirst[at + 1]! + 1),
        this.#lock.retrievalIndex?.path ?? "",
      );
      this.#sources[at] = source;
    }
    return source;
  }
}

/** A registry entry of a deferred load: fingerprints from the lock, contracts read on access. */
class CandidateEntry implements RegistryEntry {
  readonly #views: StoredCandidates;
  readonly #index: number;

  constructor(views: StoredCandidates, index: number) {
    this.#views = views;
    this.#index = index;
    Object.freeze(this);
  }

  get source(): string {
    return this.#views.sourceName(this.#views.toolOf(this.#index));
  }

  // An entry's endpoint and tool are both verified before either is handed out (endpoint first, so
  // an edited endpoint is reported as such).
  get tool(): ToolSpec {
    this.#views.endpointAt(this.#index);
    return this.#views.toolAt(this.#views.toolOf(this.#index));
  }

  get endpoint(): EndpointSpec {
    const endpoint = this.#views.endpointAt(this.#index);
    this.#views.toolAt(this.#views.toolOf(this.#index));
    return endpoint;
  }

  get toolFingerprint(): string {
    return this.#views.lockedTool(this.#views.toolOf(this.#index)).fingerprint;
  }

  get endpointFingerprint(): string {
    const tool = this.#views.toolOf(this.#index);
    return this.#views.lockedTool(tool).endpoints[this.#views.endpointName(this.#index, tool)]!.fingerprint;
  }
}
