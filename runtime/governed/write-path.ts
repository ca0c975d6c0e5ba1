/**
 * The write path of a tool's availability (docs/runtime/governed-execution.md): a passive failure
 * cools down the tool's read path (keyed by the tool) and its write path (writes, destructive and
 * unclassified calls, keyed apart). A health probe is read-only, so its
 * success reopens the read path only; the write path reopens when its cooldown ends or a non-read
 * call succeeds after it.
 */
import { InvocationUnavailableError } from "../errors/errors.js";
import type { Effect } from "../model/specs.js";
import type { AvailabilityStatus } from "./availability.js";
import { type AvailabilityStore, pendingOf } from "./state/availability-store.js";

/** The store key of a tool's write path (tool names never contain `#`). */
export function writePathKey(tool: string): string {
  return `${tool}#write`;
}

/** Whether calls of `effect` also go through the write path. */
export function usesWritePath(effect: Effect): boolean {
  return effect !== "read";
}

/** The status a call of `effect` sees: the read path's, or for non-read calls the first path cooling. */
export function pathStatus(store: AvailabilityStore, tool: string, effect: Effect): AvailabilityStatus {
  const read = store.status(tool);
  if (!read.available || !usesWritePath(effect)) return read;
  const write = store.status(writePathKey(tool));
  return write.available ? read : Object.freeze({ ...write, tool });
}

/**
 * Throws INVOCATION_UNAVAILABLE (nothing sent) while the write path of `tool` cools down; a shared
 * store answers with a promise. The refusal names the tool, not the store key.
 */
export function assertWritePathOpen(
  store: AvailabilityStore,
  tool: string,
  route: string,
): void | Promise<void> {
  const rename = (error: unknown): never => {
    if (!(error instanceof InvocationUnavailableError) || error.details?.reason !== "cooldown") throw error;
    const { cause, until } = error.details;
    throw new InvocationUnavailableError(
      `${route}: the write path of "${tool}" is cooling down after ${cause} until ${until}; nothing was sent. A health probe reopens only read endpoints; writes reopen when the cooldown ends.`,
      { ...error.details, tool },
      { retryable: false },
    );
  };
  try {
    const pending = pendingOf(store.assertAvailable(writePathKey(tool), route));
    return pending === undefined ? undefined : pending.catch(rename);
  } catch (error) {
    return rename(error);
  }
}
