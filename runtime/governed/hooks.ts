/**
 * Trusted before/after execution hooks (docs/trust-model.md §22): they run after the schema, policy and
 * approval checks, receive detached deep-frozen snapshots, cannot change the call or the result (any
 * returned value other than undefined is refused), and fail closed with HOOK_FAILED. They are
 * bounded by their own timeout and by the run's remaining wall-clock budget.
 */
import { CallRefusedError, type ErrorDetailsOf } from "../errors/errors.js";
import { deepFreeze } from "../model/freeze.js";
import type { Effect, ToolResult } from "../model/specs.js";
import { assertOptionKeys, configInvalid, integerOption } from "./refusals.js";

/** What a hook sees about the call about to run (or that ran). A detached, deep-frozen copy. */
export interface HookCallSnapshot {
  readonly runId: string;
  readonly callIndex: number;
  readonly tool: string;
  readonly endpoint: string;
  readonly effect: Effect;
  readonly remote: boolean;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly fields: readonly string[];
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  /** True when this route is a fallback alternative of the planned call. */
  readonly fallback: boolean;
}

export interface AfterHookSnapshot extends HookCallSnapshot {
  /** The validated, projected result (a detached, deep-frozen copy). */
  readonly result: ToolResult;
}

export type BeforeHook = (call: HookCallSnapshot) => void | Promise<void>;
export type AfterHook = (call: AfterHookSnapshot) => void | Promise<void>;

export interface ExecutionHooks {
  readonly before?: readonly BeforeHook[];
  readonly after?: readonly AfterHook[];
  /** Bound of each hook (default 30 000 ms), within the run's wall-clock budget. */
  readonly timeoutMs?: number;
}

export interface ResolvedHooks {
  readonly before: readonly BeforeHook[];
  readonly after: readonly AfterHook[];
  readonly timeoutMs: number;
}

export const NO_HOOKS: ResolvedHooks = Object.freeze({
  before: Object.freeze([]),
  after: Object.freeze([]),
  timeoutMs: 30_000,
});

export function resolveHooks(hooks: ExecutionHooks | undefined): ResolvedHooks {
  if (hooks === undefined) return NO_HOOKS;
  assertOptionKeys("hooks", hooks, ["before", "after", "timeoutMs"]);
  const list = <T>(name: string, value: readonly T[] | undefined): readonly T[] => {
    if (value === undefined) return Object.freeze([]);
    if (!Array.isArray(value) || !value.every((hook) => typeof hook === "function")) {
      throw configInvalid(`hooks.${name} must be an array of functions.`, { option: name });
    }
    return Object.freeze([...value]);
  };
  return Object.freeze({
    before: list("before", hooks.before),
    after: list("after", hooks.after),
    timeoutMs: integerOption("hooks", "timeoutMs", hooks.timeoutMs, 1, 2_147_483_647) ?? 30_000,
  });
}

/** A detached deep-frozen copy: what hooks (and approval callbacks) receive. */
export function snapshot<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

/**
 * Runs one hook and checks its outcome. `bound` races the hook against the run's wall-clock budget
 * and abort signal (it throws the run's stop error); a hook's own timeout is HOOK_FAILED.
 */
export async function runHook<S>(
  hook: (snapshot: S) => void | Promise<void>,
  value: S,
  stage: "before" | "after",
  index: number,
  route: string,
  timeoutMs: number,
  bound: <T>(promise: Promise<T>) => Promise<T>,
): Promise<void> {
  const where = { route, stage, hook: index };
  let returned: unknown;
  try {
    returned = hook(value);
  } catch (error) {
    throw failed(`${route}: ${stage}-hook #${index} threw, so the call is refused.`, where, "threw", error);
  }
  if (isThenable(returned)) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            failed(
              `${route}: ${stage}-hook #${index} did not finish within ${timeoutMs} ms.`,
              where,
              "timeout",
            ),
          ),
        timeoutMs,
      );
    });
    try {
      returned = await bound(
        Promise.race([
          Promise.resolve(returned).then(
            (resolved) => resolved,
            (error: unknown) => {
              throw failed(
                `${route}: ${stage}-hook #${index} rejected, so the call is refused.`,
                where,
                "threw",
                error,
              );
            },
          ),
          timeout,
        ]),
      );
    } finally {
      clearTimeout(timer);
    }
  }
  if (returned !== undefined) {
    throw failed(
      `${route}: ${stage}-hook #${index} returned a value; hooks observe and may refuse by throwing, but cannot change the call or the result.`,
      where,
      "returned-value",
    );
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

type HookFailure = ErrorDetailsOf<"HOOK_FAILED">;

function failed(
  message: string,
  where: Omit<HookFailure, "reason">,
  reason: HookFailure["reason"],
  cause?: unknown,
): CallRefusedError<"HOOK_FAILED"> {
  return new CallRefusedError(
    "HOOK_FAILED",
    message,
    { ...where, reason },
    cause === undefined ? {} : { cause },
  );
}
