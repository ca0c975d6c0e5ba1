/**
 * Precompiled fallback routes (docs/trust-model.md §29). A planned read-only call may carry alternatives;
 * the whole chain is preflighted (schema, binding, policy through Executor.prepare) before the
 * primary runs. Each alternative keeps its own fingerprints and arguments, must be explicitly
 * read-only, and may select only counterparts of the primary's planned fields plus its own
 * identifiers; counterparts are recomputed from the local FieldSpecs (the planner's rule), so a
 * forged `fieldMap` cannot map a planned field to an unrelated one. Same-provider alternatives (by
 * the registered contract, not by the route's claim) run before cross-provider ones.
 */
import type { PreparedCall } from "../boundary/checks.js";
import type { Executor } from "../boundary/executor.js";
import { CallRefusedError, type ErrorDetailsOf } from "../errors/errors.js";
import type { FieldSpec, ToolCall } from "../model/specs.js";
import { isCounterpart } from "../planner/fallbacks.js";
import { prepareChecked } from "./refusals.js";

/** A precompiled read-only alternative of one planned call. The planner's FallbackRoute extends it. */
export interface FallbackRoute extends ToolCall {
  /** Informational; the runtime orders alternatives by the registered providers. */
  readonly sameProvider?: boolean;
  /** Primary field ID → this route's field ID, for each field of the primary's need. */
  readonly fieldMap?: Readonly<Record<string, string>>;
}

/** A call as plans carry it: a ToolCall, optionally with precompiled fallbacks. */
export interface GovernedCall extends ToolCall {
  readonly fallbacks?: readonly FallbackRoute[];
}

/** A plan as invoke / stream accept it (ExecutionPlan is one). */
export interface GovernedPlan {
  readonly calls: readonly GovernedCall[];
}

export interface PreflightedRoute {
  readonly call: ToolCall;
  readonly prepared: PreparedCall;
  readonly sameProvider: boolean;
}

export interface PreflightedCall {
  readonly index: number;
  readonly primary: PreflightedRoute;
  /** Alternatives in execution order (same provider first). */
  readonly fallbacks: readonly PreflightedRoute[];
}

export const MAX_FALLBACKS = 8;

/**
 * Preflights a call and its whole fallback chain; throws before anything runs. The call and its
 * fallbacks are the runner's detached copies (their arguments are not copied again).
 */
export function preflightCall(executor: Executor, call: GovernedCall, index: number): PreflightedCall {
  const prepared = prepareChecked(executor, call);
  const primary: PreflightedRoute = { call, prepared, sameProvider: true };
  const routes = call.fallbacks;
  if (routes === undefined) return { index, primary, fallbacks: [] };
  const route = prepared.route;
  if (!Array.isArray(routes))
    throw refused(route, "malformed", "fallbacks must be an array of FallbackRoutes");
  if (routes.length === 0) return { index, primary, fallbacks: [] };
  if (routes.length > MAX_FALLBACKS) {
    throw refused(route, "too-many", `at most ${MAX_FALLBACKS} fallbacks are allowed (got ${routes.length})`);
  }
  if (prepared.endpoint.effect !== "read") {
    throw refused(
      route,
      "primary-not-read-only",
      `only read-only calls may fall back (this one is ${prepared.endpoint.effect})`,
    );
  }
  const need = prepared.fields.map((field) => field.id);
  const seen = new Set([route]);
  const fallbacks: PreflightedRoute[] = [];
  routes.forEach((alternative, position) => {
    let alt: PreparedCall;
    try {
      alt = prepareChecked(executor, alternative);
    } catch (error) {
      throw inFallback(error, route, position);
    }
    const where = `${route} → fallback #${position} (${alt.route})`;
    if (alt.endpoint.effect !== "read") {
      throw refused(
        where,
        "not-read-only",
        `a fallback must be read-only (this one is ${alt.endpoint.effect})`,
        position,
      );
    }
    if (seen.has(alt.route))
      throw refused(where, "duplicate-route", "the route already appears in the chain", position);
    seen.add(alt.route);
    const mismatch = nonCounterparts(prepared.fields, alt, alternative.fieldMap);
    if (mismatch.length > 0) {
      throw refused(
        where,
        "field-not-counterpart",
        `${mismatch.map((pair) => `${pair.field} → ${pair.counterpart}`).join(", ")} ${mismatch.length === 1 ? "is" : "are"} not the same logical value by the local contracts (equal semantic IDs, or a shared field ID or alias, with equal units)`,
        position,
        { mappings: mismatch },
      );
    }
    const broadened = broadenedFields(need, alt, alternative.fieldMap);
    if (broadened.length > 0) {
      throw refused(
        where,
        "broadens-fields",
        `it selects ${broadened.join(", ")}, which the primary did not plan; a fallback may change the access path, never the field need`,
        position,
        { fields: broadened },
      );
    }
    fallbacks.push({
      call: alternative,
      prepared: alt,
      sameProvider: alt.registered.tool.provider === prepared.registered.tool.provider,
    });
  });
  const ordered = [...fallbacks.filter((r) => r.sameProvider), ...fallbacks.filter((r) => !r.sameProvider)];
  return { index, primary, fallbacks: ordered };
}

/**
 * The mappings from a planned field to an alternative's field that the local contracts do not show
 * to be counterparts (the planner's `isCounterpart` rule): every `fieldMap` entry, and without a
 * `fieldMap`, every selected non-identifier field matched by an equal ID. A caller-supplied
 * `fieldMap` is a claim, never evidence. Keys outside the need are left to `broadenedFields`.
 */
function nonCounterparts(
  need: readonly FieldSpec[],
  alt: PreparedCall,
  fieldMap: Readonly<Record<string, string>> | undefined,
): { field: string; counterpart: string }[] {
  const planned = new Map(need.map((field) => [field.id, field]));
  const declared = new Map(alt.endpoint.fields.map((field) => [field.id, field]));
  const pairs: [string, unknown][] =
    fieldMap === undefined
      ? alt.fields.filter((field) => field.identifier !== true).map((field) => [field.id, field.id])
      : fieldMap !== null && typeof fieldMap === "object" && !Array.isArray(fieldMap)
        ? Object.entries(fieldMap)
        : [];
  const out: { field: string; counterpart: string }[] = [];
  for (const [key, value] of pairs) {
    const from = planned.get(key);
    if (from === undefined) continue;
    const to = typeof value === "string" ? declared.get(value) : undefined;
    if (to === undefined || !isCounterpart(from, to)) out.push({ field: key, counterpart: String(value) });
  }
  return out;
}

/**
 * The alternative's selected fields that are neither a counterpart of a planned field (through
 * `fieldMap`, or by equal ID without one) nor one of its own identifier fields.
 */
function broadenedFields(
  need: readonly string[],
  alt: PreparedCall,
  fieldMap: Readonly<Record<string, string>> | undefined,
): string[] {
  let allowed: Set<string>;
  if (fieldMap !== undefined) {
    if (fieldMap === null || typeof fieldMap !== "object") return ["(fieldMap is not an object)"];
    const keys = Object.keys(fieldMap);
    const extra = keys.filter((key) => !need.includes(key));
    if (extra.length > 0) return extra.map((key) => `fieldMap.${key}`);
    allowed = new Set(keys.map((key) => fieldMap[key]!));
  } else {
    allowed = new Set(need);
  }
  return alt.fields
    .filter((field) => field.identifier !== true && !allowed.has(field.id))
    .map((field) => field.id);
}

type Refusal = ErrorDetailsOf<"FALLBACK_REFUSED">;

function refused(
  route: string,
  reason: Refusal["reason"],
  message: string,
  fallback?: number,
  extra: Pick<Refusal, "mappings" | "fields"> = {},
): CallRefusedError<"FALLBACK_REFUSED"> {
  return new CallRefusedError(
    "FALLBACK_REFUSED",
    `${route}: fallback refused: ${message}. Re-plan with router.plan(), which precompiles valid alternatives.`,
    { route, reason, ...(fallback !== undefined ? { fallback } : {}), ...extra },
  );
}

/**
 * Re-raises a fallback's preflight refusal with its own code, naming the primary and the fallback
 * position. Other errors (a LoadError of an endpoint verified on first use) pass unchanged: the code
 * keeps its class.
 */
function inFallback(error: unknown, route: string, position: number): unknown {
  if (!(error instanceof CallRefusedError)) return error;
  return new CallRefusedError(
    error.code,
    `${route} → fallback #${position}: ${error.message}`,
    { ...error.details, primary: route, fallback: position },
    { cause: error },
  );
}
