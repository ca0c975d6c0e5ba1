/**
 * Refusals of the retrieval surface (malformed requests, out-of-range K) and the request checks that
 * raise them. Retrieval itself never executes anything, so these are the only errors it throws.
 */

import { type ErrorDetailsOf, SchemaRouterError, SUBCLASS } from "../errors/errors.js";
import { EFFECTS, type SourceKind } from "../model/specs.js";
import type { RetrievalRequest } from "./types.js";

/** Largest K a single retrieval may ask for: the candidate set stays bounded. */
export const MAX_K = 200;
/** Longest query text accepted (characters). */
export const MAX_QUERY_LENGTH = 10_000;
/** Most entries in any of the request's lists. */
export const MAX_LIST_LENGTH = 256;
export const DEFAULT_K = 5;

const REQUEST_KEYS: ReadonlySet<string> = new Set([
  "query",
  "semanticIds",
  "fields",
  "units",
  "effects",
  "arguments",
  "evidence",
  "maxCalls",
  "fallbacks",
]);

const SOURCE_KINDS: readonly SourceKind[] = [
  "openapi",
  "mcp",
  "optimade",
  "local",
  "proposal",
  "plugin",
  "odata",
  "graphql",
  "openrpc",
];

/** A retrieval or planning request is malformed (code `INVALID_RETRIEVAL_REQUEST`). */
export class RetrievalError extends SchemaRouterError<"INVALID_RETRIEVAL_REQUEST"> {
  constructor(message: string, details: ErrorDetailsOf<"INVALID_RETRIEVAL_REQUEST"> = {}) {
    super("INVALID_RETRIEVAL_REQUEST", message, details, undefined, SUBCLASS);
  }
}

export function checkK(k: unknown): number {
  if (k === undefined) return DEFAULT_K;
  if (typeof k !== "number" || !Number.isInteger(k) || k < 1 || k > MAX_K) {
    throw new RetrievalError(`k must be an integer from 1 to ${MAX_K}; got ${String(k)}.`, { k });
  }
  return k;
}

export function checkMinScore(minScore: unknown): number {
  if (minScore === undefined) return 0;
  if (typeof minScore !== "number" || !Number.isFinite(minScore) || minScore < 0) {
    throw new RetrievalError(`minScore must be a finite number >= 0; got ${String(minScore)}.`, { minScore });
  }
  return minScore;
}

export function checkMinCoverage(minCoverage: unknown): number {
  if (minCoverage === undefined) return 0;
  if (
    typeof minCoverage !== "number" ||
    !Number.isFinite(minCoverage) ||
    minCoverage < 0 ||
    minCoverage > 1
  ) {
    throw new RetrievalError(`minCoverage must be a number from 0 to 1; got ${String(minCoverage)}.`, {
      minCoverage,
    });
  }
  return minCoverage;
}

function checkStrings(value: unknown, name: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length > MAX_LIST_LENGTH || !value.every((v) => typeof v === "string")) {
    throw new RetrievalError(`request.${name} must be an array of at most ${MAX_LIST_LENGTH} strings.`, {
      field: name,
    });
  }
}

export function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Checks the shape of a request; throws RetrievalError naming the offending member. */
export function checkRequest(request: RetrievalRequest): void {
  if (!isPlainObject(request)) throw new RetrievalError("request must be a plain object.", {});
  const unknown = Object.keys(request).filter((key) => !REQUEST_KEYS.has(key));
  if (unknown.length > 0) {
    throw new RetrievalError(`request has unknown members: ${unknown.join(", ")}.`, { fields: unknown });
  }
  if (typeof request.query !== "string" || request.query.length > MAX_QUERY_LENGTH) {
    throw new RetrievalError(`request.query must be a string of at most ${MAX_QUERY_LENGTH} characters.`, {
      field: "query",
    });
  }
  checkStrings(request.semanticIds, "semanticIds");
  checkStrings(request.fields, "fields");
  checkStrings(request.units, "units");
  if (request.effects !== undefined) {
    checkStrings(request.effects, "effects");
    const unknown = request.effects.filter((effect) => !EFFECTS.includes(effect));
    if (unknown.length > 0) {
      throw new RetrievalError(`request.effects has unknown effects: ${unknown.join(", ")}.`, {
        field: "effects",
      });
    }
  }
  if (request.arguments !== undefined && !isPlainObject(request.arguments)) {
    throw new RetrievalError("request.arguments must be a plain object.", { field: "arguments" });
  }
  if (request.maxCalls !== undefined) {
    const n = request.maxCalls;
    if (!Number.isInteger(n) || n < 1 || n > 16) {
      throw new RetrievalError("request.maxCalls must be an integer from 1 to 16.", { field: "maxCalls" });
    }
  }
  if (request.fallbacks !== undefined && typeof request.fallbacks !== "boolean") {
    throw new RetrievalError("request.fallbacks must be a boolean.", { field: "fallbacks" });
  }
  checkEvidence(request.evidence);
}

function checkEvidence(evidence: RetrievalRequest["evidence"]): void {
  if (evidence === undefined) return;
  if (!isPlainObject(evidence)) throw new RetrievalError("request.evidence must be a plain object.", {});
  for (const key of Object.keys(evidence)) {
    if (!["provenance", "license", "units", "sourceTypes"].includes(key)) {
      throw new RetrievalError(`request.evidence.${key} is not a known evidence requirement.`, {
        field: key,
      });
    }
  }
  for (const key of ["provenance", "license"] as const) {
    const value = evidence[key];
    if (value !== undefined && typeof value !== "boolean") checkStrings(value, `evidence.${key}`);
  }
  if (evidence.units !== undefined && typeof evidence.units !== "boolean") {
    throw new RetrievalError("request.evidence.units must be a boolean.", { field: "evidence.units" });
  }
  if (evidence.sourceTypes !== undefined) {
    checkStrings(evidence.sourceTypes, "evidence.sourceTypes");
    const unknown = evidence.sourceTypes.filter((kind) => !SOURCE_KINDS.includes(kind));
    if (unknown.length > 0) {
      throw new RetrievalError(`request.evidence.sourceTypes has unknown kinds: ${unknown.join(", ")}.`, {
        field: "evidence.sourceTypes",
      });
    }
  }
}
