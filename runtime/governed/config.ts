/**
 * RunConfig: the trusted, per-run execution settings (run id, tags, metadata, execution mode,
 * concurrency bound, retry policy, budget, shared budget, payload tracing, trace store). Validated key by key
 * before a run starts, so a typo never silently drops a limit.
 */
import { randomUUID } from "node:crypto";
import type { TraceStore } from "../traces/store.js";
import { ExecutionBudget } from "./budget.js";
import { assertOptionKeys, configInvalid, integerOption } from "./refusals.js";
import { RetryPolicy } from "./retry.js";
import { SharedBudget } from "./state/shared-budget.js";

/** `sequential`: one call after the other. `parallelReadOnly`: flat, explicitly read-only plans only. */
export type ExecutionMode = "sequential" | "parallelReadOnly";

export interface RunConfig {
  /** Identifies the run in events and traces (default: a random UUID). */
  readonly runId?: string;
  readonly tags?: readonly string[];
  readonly metadata?: Readonly<Record<string, string>>;
  readonly mode?: ExecutionMode;
  /** Calls in flight at once in `parallelReadOnly` mode (default 4, at most 64). */
  readonly concurrency?: number;
  /** Same-route retries (default RetryPolicy.NONE: one attempt per route). */
  readonly retry?: RetryPolicy;
  readonly budget?: ExecutionBudget;
  /**
   * A budget shared with every run and process naming the same key (docs/state/postgres.md):
   * reserved before each attempt, after `budget`. A store that cannot answer refuses the attempt.
   */
  readonly sharedBudget?: SharedBudget;
  /** Aborts the run (RUN_ABORTED). */
  readonly signal?: AbortSignal;
  /**
   * Put argument and result values in tool.start / tool.end events (default false: omitted). The
   * trace store redacts them again unless it was opened with `includePayloads` too.
   */
  readonly includePayloads?: boolean;
  /** Every event of the run is appended here, in order, before the run goes on. */
  readonly traceStore?: TraceStore;
}

export interface ResolvedRunConfig {
  readonly runId: string;
  readonly tags: readonly string[];
  readonly metadata: Readonly<Record<string, string>>;
  readonly mode: ExecutionMode;
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly budget: ExecutionBudget | undefined;
  readonly sharedBudget: SharedBudget | undefined;
  readonly signal: AbortSignal | undefined;
  readonly includePayloads: boolean;
  readonly traceStore: TraceStore | undefined;
}

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;
const MAX_NAME = 512;
const MAX_TAGS = 64;
const MAX_METADATA_KEYS = 64;
const MAX_METADATA_VALUE = 4096;
const KEYS = [
  "runId",
  "tags",
  "metadata",
  "mode",
  "concurrency",
  "retry",
  "budget",
  "sharedBudget",
  "signal",
  "includePayloads",
  "traceStore",
];

const isName = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_NAME;

const NO_TAGS: readonly string[] = Object.freeze([]);
const NO_METADATA: Readonly<Record<string, string>> = Object.freeze({});

export function resolveRunConfig(config: RunConfig = {}): ResolvedRunConfig {
  const owner = "RunConfig";
  // The common case on every call's path (router.call(call) with no config): defaults, nothing to check.
  if (isEmptyObject(config)) return defaultRunConfig();
  assertOptionKeys(owner, config, KEYS);
  if (config.runId !== undefined && !isName(config.runId)) {
    throw configInvalid(`${owner}: runId must be a non-empty string of at most ${MAX_NAME} characters.`, {
      option: "runId",
    });
  }
  const tags = config.tags ?? [];
  if (!Array.isArray(tags) || tags.length > MAX_TAGS || !tags.every(isName)) {
    throw configInvalid(`${owner}: tags must be at most ${MAX_TAGS} non-empty strings.`, { option: "tags" });
  }
  const metadata = config.metadata ?? {};
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw configInvalid(`${owner}: metadata must be an object of strings.`, { option: "metadata" });
  }
  const entries = Object.entries(metadata);
  if (
    entries.length > MAX_METADATA_KEYS ||
    !entries.every(
      ([key, value]) => isName(key) && typeof value === "string" && value.length <= MAX_METADATA_VALUE,
    )
  ) {
    throw configInvalid(
      `${owner}: metadata must have at most ${MAX_METADATA_KEYS} keys with string values of at most ${MAX_METADATA_VALUE} characters.`,
      { option: "metadata" },
    );
  }
  const mode = config.mode ?? "sequential";
  if (mode !== "sequential" && mode !== "parallelReadOnly") {
    throw configInvalid(`${owner}: mode must be "sequential" or "parallelReadOnly".`, { option: "mode" });
  }
  const concurrency = integerOption(owner, "concurrency", config.concurrency, 1, MAX_CONCURRENCY);
  if (config.retry !== undefined && !(config.retry instanceof RetryPolicy)) {
    throw configInvalid(`${owner}: retry must be a RetryPolicy (new RetryPolicy({ … })).`, {
      option: "retry",
    });
  }
  if (config.budget !== undefined && !(config.budget instanceof ExecutionBudget)) {
    throw configInvalid(`${owner}: budget must be an ExecutionBudget (new ExecutionBudget({ … })).`, {
      option: "budget",
    });
  }
  if (config.sharedBudget !== undefined && !(config.sharedBudget instanceof SharedBudget)) {
    throw configInvalid(
      `${owner}: sharedBudget must be a SharedBudget (new SharedBudget({ key, store, … })).`,
      {
        option: "sharedBudget",
      },
    );
  }
  if (config.signal !== undefined && !(config.signal instanceof AbortSignal)) {
    throw configInvalid(`${owner}: signal must be an AbortSignal.`, { option: "signal" });
  }
  if (config.includePayloads !== undefined && typeof config.includePayloads !== "boolean") {
    throw configInvalid(`${owner}: includePayloads must be true or false.`, { option: "includePayloads" });
  }
  const store = config.traceStore;
  if (store !== undefined && (store === null || typeof store.append !== "function")) {
    throw configInvalid(`${owner}: traceStore must implement TraceStore (e.g. SqliteTraceStore).`, {
      option: "traceStore",
    });
  }
  return Object.freeze({
    runId: config.runId ?? randomUUID(),
    tags: Object.freeze([...tags]),
    metadata: Object.freeze({ ...metadata }),
    mode,
    concurrency: concurrency ?? DEFAULT_CONCURRENCY,
    retry: config.retry ?? RetryPolicy.NONE,
    budget: config.budget,
    sharedBudget: config.sharedBudget,
    signal: config.signal,
    includePayloads: config.includePayloads === true,
    traceStore: store,
  });
}

/** A plain object with no own keys; an object that could inherit options takes the full path. */
function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  // No key array made: any enumerable key (own, or inherited from a changed Object.prototype) sends
  // the config down the full path, which checks own keys and resolves the same.
  for (const _ in value) return false;
  return true;
}

/**
 * What an empty RunConfig resolves to (the full path gives the same, key for key). Its run id is made
 * when first read: a run nobody observes (no trace store, stream, hook or approval) never reads it.
 */
function defaultRunConfig(): ResolvedRunConfig {
  return Object.freeze(new DefaultRunConfig());
}

/** The default config: frozen (its private run id slot is filled on first read). */
class DefaultRunConfig implements ResolvedRunConfig {
  #runId: string | undefined;
  readonly tags = NO_TAGS;
  readonly metadata = NO_METADATA;
  readonly mode = "sequential";
  readonly concurrency = DEFAULT_CONCURRENCY;
  readonly retry = RetryPolicy.NONE;
  readonly budget = undefined;
  readonly sharedBudget = undefined;
  readonly signal = undefined;
  readonly includePayloads = false;
  readonly traceStore = undefined;

  get runId(): string {
    this.#runId ??= randomUUID();
    return this.#runId;
  }
}
