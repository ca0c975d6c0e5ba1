/**
 * RetryPolicy (docs/trust-model.md, core invariants: retries): same-route retries with bounded exponential
 * backoff, only for transient failures (timeouts, connection errors, HTTP 408/425/429/5xx) and only
 * for calls classified read-only unless local code opts in. Validation, policy, approval, staleness,
 * deterministic 4xx, output-contract and application errors (TOOL_ERROR) are never retried.
 */
import { InvocationError, InvocationUnavailableError } from "../errors/errors.js";
import type { Effect } from "../model/specs.js";
import { assertOptionKeys, configInvalid, integerOption, numberOption } from "./refusals.js";

export interface RetryPolicyOptions {
  /** Attempts per route, the first included (default 3, at most 10). 1 turns retries off. */
  readonly maxAttempts?: number;
  /** Delay before the first retry (default 100 ms). */
  readonly initialDelayMs?: number;
  /** Upper bound of the backoff delay (default 5 000 ms). */
  readonly maxDelayMs?: number;
  /** Growth factor per retry (default 2). */
  readonly multiplier?: number;
  /**
   * Longest Retry-After the policy waits for (default 30 000 ms). A server asking for longer ends
   * the retries: the route counts as unavailable (cooldown, then fallback).
   */
  readonly maxRetryAfterMs?: number;
  /** Retry calls that are not classified read-only too (default false; local opt-in only). */
  readonly retryNonReadOnly?: boolean;
}

const KEYS = [
  "maxAttempts",
  "initialDelayMs",
  "maxDelayMs",
  "multiplier",
  "maxRetryAfterMs",
  "retryNonReadOnly",
];
export const MAX_RETRY_ATTEMPTS = 10;
const MAX_DELAY_MS = 600_000;

export class RetryPolicy {
  /** No retries: one attempt per route. The default of a run without `retry`. */
  static readonly NONE: RetryPolicy = new RetryPolicy({ maxAttempts: 1 });

  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly multiplier: number;
  readonly maxRetryAfterMs: number;
  readonly retryNonReadOnly: boolean;

  constructor(options: RetryPolicyOptions = {}) {
    const owner = "RetryPolicy";
    assertOptionKeys(owner, options, KEYS);
    this.maxAttempts = integerOption(owner, "maxAttempts", options.maxAttempts, 1, MAX_RETRY_ATTEMPTS) ?? 3;
    this.initialDelayMs =
      integerOption(owner, "initialDelayMs", options.initialDelayMs, 0, MAX_DELAY_MS) ?? 100;
    this.maxDelayMs = integerOption(owner, "maxDelayMs", options.maxDelayMs, 0, MAX_DELAY_MS) ?? 5_000;
    this.multiplier = numberOption(owner, "multiplier", options.multiplier, 1, 10) ?? 2;
    this.maxRetryAfterMs =
      integerOption(owner, "maxRetryAfterMs", options.maxRetryAfterMs, 0, MAX_DELAY_MS) ?? 30_000;
    if (options.retryNonReadOnly !== undefined && typeof options.retryNonReadOnly !== "boolean") {
      throw configInvalid(`${owner}: retryNonReadOnly must be true or false.`, {
        option: "retryNonReadOnly",
      });
    }
    this.retryNonReadOnly = options.retryNonReadOnly === true;
    Object.freeze(this);
  }

  /** Whether a call with this side-effect class may be retried at all. */
  allowsRetry(effect: Effect): boolean {
    return effect === "read" || this.retryNonReadOnly;
  }

  /**
   * The delay before retry number `retry` (1-based) after `error`, or undefined when the server's
   * Retry-After exceeds `maxRetryAfterMs` (retries end).
   */
  delayBeforeRetry(retry: number, error: unknown, now: number = Date.now()): number | undefined {
    const backoff = Math.min(this.maxDelayMs, this.initialDelayMs * this.multiplier ** (retry - 1));
    const after = retryAfterMs(error, now);
    if (after === undefined) return backoff;
    if (after > this.maxRetryAfterMs) return undefined;
    return Math.max(backoff, after);
  }
}

/**
 * A transient failure worth retrying: an InvocationError marked retryable by its transport
 * (timeouts, connection errors, 408/425/429/5xx), never an application error (TOOL_ERROR).
 */
export function isTransient(error: unknown): boolean {
  return error instanceof InvocationError && error.code !== "TOOL_ERROR" && error.retryable;
}

/** A failure that, once same-route retries are over, marks the access path unavailable. */
export function isUnavailable(error: unknown): boolean {
  return isTransient(error) || error instanceof InvocationUnavailableError;
}

/** The server's Retry-After (seconds or HTTP date) in milliseconds, when the error carries one. */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  if (!(error instanceof InvocationError)) return undefined;
  let value: unknown = error.details.retryAfter;
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
