/**
 * Non-executing replay (docs/trust-model.md §23): reads a run's stored events from a TraceStore,
 * re-validates every one, and returns detached, deeply frozen copies. It takes nothing but a store,
 * so it cannot reach a planner, executor, network or binding; it never invents a missing end.
 */

import type { ErrorDetailsOf } from "../errors/errors.js";
import { deepFreeze } from "../model/freeze.js";
import { isTerminal, type RunEvent, TraceError, validateRunEvent } from "./events.js";
import { assertFollows, type StoredEvent, type TraceStore } from "./store.js";

export interface ReplayResult {
  readonly runId: string;
  /** The historical events in sequence order: detached copies, deeply frozen. */
  readonly events: readonly RunEvent[];
  /** True only when the last stored event is terminal (run.end or run.error). */
  readonly complete: boolean;
}

/**
 * Replays one run. Throws `TRACE_RUN_NOT_FOUND` (no events), `TRACE_CORRUPT` (unparsable or invalid
 * stored event, or one stored under another sequence than it names), `TRACE_RUN_MISMATCH`,
 * `TRACE_SEQUENCE_GAP`, `TRACE_TIMESTAMP_REGRESSION`, `TRACE_ORDER_INVALID` or `TRACE_AFTER_TERMINAL`.
 */
export async function replayRun(store: TraceStore, runId: string): Promise<ReplayResult> {
  if (typeof runId !== "string" || runId.length === 0) {
    throw new TraceError("TRACE_RUN_NOT_FOUND", "replayRun needs a non-empty run id.", {
      runId: String(runId),
    });
  }
  const stored = await store.readRun(runId);
  if (stored.length === 0) {
    throw new TraceError("TRACE_RUN_NOT_FOUND", `The trace store has no events for run ${runId}.`, { runId });
  }
  const events: RunEvent[] = [];
  let previous: RunEvent | undefined;
  for (const record of stored) {
    const event = decode(record, runId);
    assertFollows(previous, event);
    events.push(deepFreeze(event));
    previous = event;
  }
  return Object.freeze({
    runId,
    events: Object.freeze(events),
    complete: previous !== undefined && isTerminal(previous),
  });
}

function decode(record: StoredEvent, runId: string): RunEvent {
  const where = { runId, storedRunId: record.runId, storedSequence: record.sequence };
  if (record.runId !== runId) {
    throw mismatch(`The store returned an event of run ${record.runId} when asked for run ${runId}.`, where);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.data);
  } catch (error) {
    throw corrupt(`Stored event ${record.sequence} of run ${runId} is not valid JSON.`, where, error);
  }
  let event: RunEvent;
  try {
    event = validateRunEvent(parsed);
  } catch (error) {
    throw corrupt(`Stored event ${record.sequence} of run ${runId} is not a valid RunEvent.`, where, error);
  }
  if (event.runId !== runId) {
    throw mismatch(`Stored event ${record.sequence} of run ${runId} names run ${event.runId}.`, where);
  }
  if (event.sequence !== record.sequence) {
    throw corrupt(
      `Stored event ${record.sequence} of run ${runId} names sequence ${event.sequence}.`,
      where,
      undefined,
    );
  }
  return event;
}

function mismatch(message: string, details: ErrorDetailsOf<"TRACE_RUN_MISMATCH">): TraceError {
  return new TraceError(
    "TRACE_RUN_MISMATCH",
    `${message} The trace is not trustworthy; do not replay it.`,
    details,
  );
}

function corrupt(message: string, details: ErrorDetailsOf<"TRACE_CORRUPT">, cause: unknown): TraceError {
  return new TraceError(
    "TRACE_CORRUPT",
    `${message} The trace store is damaged; restore it from a backup.`,
    details,
    {
      cause,
    },
  );
}
