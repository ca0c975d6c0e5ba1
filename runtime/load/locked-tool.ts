/**
 * A tool registered from a verified artifact layout against its lock entry, with endpoints that are
 * parsed and verified on first use.
 *
 * At registration (load): the endpoint index (names, effects, order) must match the lock's entries,
 * the remote digests and the remote flag must match, and the tool fingerprint is recomputed from the
 * tool's own contract and the locked endpoint fingerprints in artifact order. Nothing else about an
 * endpoint is trusted yet. On first access to an endpoint (through `tool.endpoints[i]`, the
 * registered `endpoints` map or a registry entry), its line is parsed, its fingerprint recomputed
 * over its contract and the shared definitions it uses, and compared with the lock: a mismatch
 * throws LOCK_MISMATCH (reason `endpoint-fingerprint`) at that access and at every later one, so a
 * drifted endpoint can never be retrieved, planned, validated or executed. A verified endpoint is
 * deep-frozen and cached; no endpoint object exists before it is verified, so none can be mutated
 * before its check.
 */

import { type ErrorDetailsOf, LoadError } from "../errors/errors.js";
import type { ArtifactLayout, Span } from "../format/artifact-layout.js";
import { parseSpan } from "../format/artifact-read.js";
import { contractTextOf } from "../format/contract-text.js";
import {
  contractFingerprint,
  type DefinitionSet,
  directDefRefsInText,
  endpointContract,
  toolFingerprint,
} from "../format/fingerprint.js";
import type { LockedTool } from "../format/lockfile.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, SourceKind } from "../model/specs.js";
import { assertSafeEndpoint, type RegisteredTool } from "./registry.js";

export interface LockedToolInput {
  readonly source: string;
  readonly sourceKind: SourceKind;
  readonly layout: ArtifactLayout;
  /** Position of the tool in the artifact's `tools`. */
  readonly position: number;
  readonly defs: DefinitionSet;
  readonly locked: LockedTool;
  /** The artifact's path (for messages). */
  readonly where: string;
}

export function registerLockedTool(input: LockedToolInput, eager: boolean): RegisteredTool {
  const { source, layout, position, locked } = input;
  const skeleton = layout.skeleton.tools[position]!;
  const name = skeleton.name;
  const index = layout.skeleton.endpointIndex[name]!;
  const remote = layout.skeleton.remoteDigests[name] ?? {};
  const lockedNames = Object.keys(locked.endpoints);
  if (lockedNames.length !== index.length) {
    throw lockMismatch(
      source,
      "missing-entry",
      `tool "${name}" has a different set of endpoints than the lockfile`,
      {
        tool: name,
      },
    );
  }
  const fingerprints = new Map<string, string>();
  const remoteDigests = new Map<string, string>();
  for (const [endpoint, effect] of index) {
    const entry = Object.hasOwn(locked.endpoints, endpoint) ? locked.endpoints[endpoint] : undefined;
    const remoteDigest = Object.hasOwn(remote, endpoint) ? remote[endpoint] : undefined;
    if (
      entry === undefined ||
      fingerprints.has(endpoint) ||
      entry.effect !== effect ||
      entry.remoteDigest !== remoteDigest
    ) {
      throw lockMismatch(
        source,
        "endpoint-fingerprint",
        `endpoint "${name}.${endpoint}" does not match the lockfile`,
        { tool: name, endpoint, ...(entry === undefined ? {} : { expected: entry.fingerprint }) },
      );
    }
    fingerprints.set(endpoint, entry.fingerprint);
    if (remoteDigest !== undefined) remoteDigests.set(endpoint, remoteDigest);
  }
  const spans = layout.endpoints[position]!;
  const slots = index.map(([endpoint], at) => lazySlot(input, name, endpoint, spans[at]!));
  const list: EndpointSpec[] = [];
  for (const [at, slot] of slots.entries()) Object.defineProperty(list, at, { enumerable: true, get: slot });
  Object.freeze(list);
  // The skeleton is this load's own parse: completing it in place keeps its member order.
  (skeleton as unknown as { endpoints: readonly EndpointSpec[] }).endpoints = list;
  const tool = deepFreeze(skeleton);
  if (eager) for (const slot of slots) slot();
  const actual = toolFingerprint(tool, [...fingerprints.values()]);
  if (actual !== locked.fingerprint || tool.remote !== locked.remote) {
    throw lockMismatch(source, "tool-fingerprint", `tool "${name}" does not match its locked fingerprint`, {
      tool: name,
      expected: locked.fingerprint,
      actual,
    });
  }
  return Object.freeze({
    tool,
    source,
    sourceKind: input.sourceKind,
    fingerprint: locked.fingerprint,
    endpointFingerprints: fingerprints,
    endpoints: new LazyEndpoints(new Map(index.map(([endpoint], at) => [endpoint, at])), list),
    defs: input.defs,
    remoteDigests,
  });
}

/** The getter of one endpoint slot: parse, verify, freeze and cache on first call (or the failure). */
function lazySlot(input: LockedToolInput, tool: string, name: string, span: Span): () => EndpointSpec {
  let value: EndpointSpec | undefined;
  let failure: unknown;
  return () => {
    if (value !== undefined) return value;
    if (failure !== undefined) throw failure;
    try {
      value = verifyEndpoint(input, tool, name, span);
      return value;
    } catch (error) {
      failure = error;
      throw error;
    }
  };
}

function verifyEndpoint(input: LockedToolInput, tool: string, name: string, span: Span): EndpointSpec {
  return verifyEndpointText(input, tool, name, input.layout.bytes, span);
}

/** What checking one endpoint's text needs: its source, tool lock entry and shared definitions. */
export interface EndpointCheck {
  readonly source: string;
  /** The artifact's path (for messages). */
  readonly where: string;
  readonly locked: LockedTool;
  readonly defs: DefinitionSet;
}

/**
 * Parses the endpoint `tool.name` at `span` of `bytes` and checks it against the lock: its fingerprint
 * (over its contract and the shared definitions it uses), its effect and its names (`parsed`: the
 * bytes already parsed by the caller). The fingerprint is first computed over `JSON.stringify` of the
 * parsed contract: if that equals the lock's, the object's serialization is the locked canonical
 * contract text (SHA-256), so the object is that text's value: the very object returned is what the
 * lock pins (the bytes themselves are pinned by the artifact or index digest). Only when it differs (an object whose integer-like keys JSON.stringify writes
 * first, which canonical order need not) is the fingerprint computed over the line's bytes instead;
 * either match verifies the contract, neither refuses it. Throws
 * LOCK_MISMATCH (`endpoint-fingerprint`) or ARTIFACT_INVALID; returns the endpoint deep-frozen.
 */
export function verifyEndpointText(
  input: EndpointCheck,
  tool: string,
  name: string,
  bytes: Buffer,
  span: Span,
  parsed?: unknown,
): EndpointSpec {
  const { source, where, locked } = input;
  const endpoint = (parsed ??
    parseSpan({ bytes }, span, where, `endpoint "${tool}.${name}"`)) as EndpointSpec;
  const expected = locked.endpoints[name]!.fingerprint;
  let actual: string | undefined;
  let cause: unknown;
  try {
    if (endpoint.name === name) {
      // The parsed contract serialized natively: equal to the locked canonical text exactly when the
      // object this returns is the locked contract (see the function comment).
      const serialized = JSON.stringify(endpointContract(endpoint));
      actual = contractFingerprint([serialized], directDefRefsInText(serialized), input.defs);
      if (actual !== expected) {
        // Member order JSON.stringify cannot keep (integer-like keys): the line's own bytes minus its
        // metadata member (contract-text.ts).
        const text = contractTextOf(bytes, span);
        actual = contractFingerprint(text.pieces, text.refs, input.defs);
      }
    }
  } catch (error) {
    // e.g. a `$ref` to a definition the artifact does not have
    cause = error;
  }
  if (actual !== expected) {
    throw lockMismatch(
      source,
      "endpoint-fingerprint",
      `endpoint "${tool}.${name}" in ${where} does not match its locked fingerprint (checked on first use)`,
      { tool, endpoint: name, expected, ...(actual === undefined ? {} : { actual }) },
      cause,
    );
  }
  // The effect the lock (and the load-time index check) shows a reviewer must be the contract's.
  const lockedEffect = locked.endpoints[name]!.effect;
  if (endpoint.effect !== lockedEffect) {
    throw lockMismatch(
      source,
      "endpoint-fingerprint",
      `endpoint "${tool}.${name}" in ${where} declares effect "${String(endpoint.effect)}", but the lockfile says "${lockedEffect}" (checked on first use)`,
      { tool, endpoint: name, expected: lockedEffect, actual: endpoint.effect },
    );
  }
  assertSafeEndpoint(tool, endpoint);
  return deepFreeze(endpoint);
}

/**
 * The registered endpoints map of a locked tool: `get` verifies one endpoint; `keys`, `has` and
 * `size` verify none; iterating values or entries verifies all.
 */
class LazyEndpoints implements ReadonlyMap<string, EndpointSpec> {
  readonly #slots: ReadonlyMap<string, number>;
  readonly #list: readonly EndpointSpec[];
  /**
   * Endpoints already verified, by name: the very frozen objects their slots return. A call looks an
   * endpoint up several times; a Map hit avoids the slot's accessor on the (dictionary-mode) list.
   * A failed verification is never cached here: its slot throws it again.
   */
  readonly #verified = new Map<string, EndpointSpec>();

  constructor(slots: ReadonlyMap<string, number>, list: readonly EndpointSpec[]) {
    this.#slots = slots;
    this.#list = list;
    Object.freeze(this);
  }

  get size(): number {
    return this.#slots.size;
  }

  get(name: string): EndpointSpec | undefined {
    const verified = this.#verified.get(name);
    if (verified !== undefined) return verified;
    const at = this.#slots.get(name);
    if (at === undefined) return undefined;
    const endpoint = this.#list[at]!;
    this.#verified.set(name, endpoint);
    return endpoint;
  }

  has(name: string): boolean {
    return this.#slots.has(name);
  }

  keys(): MapIterator<string> {
    return this.#slots.keys();
  }

  values(): MapIterator<EndpointSpec> {
    return this.#all().values();
  }

  entries(): MapIterator<[string, EndpointSpec]> {
    return this.#all().entries();
  }

  forEach(
    callback: (value: EndpointSpec, key: string, map: ReadonlyMap<string, EndpointSpec>) => void,
  ): void {
    for (const [key, value] of this.#all()) callback(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, EndpointSpec]> {
    return this.entries();
  }

  #all(): Map<string, EndpointSpec> {
    const out = new Map<string, EndpointSpec>();
    for (const [name, at] of this.#slots) out.set(name, this.#list[at]!);
    return out;
  }
}

type Mismatch = ErrorDetailsOf<"LOCK_MISMATCH">;

export function lockMismatch(
  source: string,
  reason: Mismatch["reason"],
  what: string,
  extra: Omit<Mismatch, "source" | "reason"> = {},
  cause?: unknown,
): LoadError<"LOCK_MISMATCH"> {
  return new LoadError(
    "LOCK_MISMATCH",
    `Source "${source}": ${what}. The artifacts and the lockfile disagree; re-run \`schemarouter compile\` and review the lockfile diff.`,
    { source, reason, ...extra },
    cause === undefined ? undefined : { cause },
  );
}
