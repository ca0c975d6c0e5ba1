/**
 * The TraceStore contract (append-only persistence of validated RunEvents, read back raw for replay)
 * and the ordering rules every store and replay enforce, defined once (docs/trust-model.md §23).
 */
import { isTerminalType, type RunEvent, TraceError } from "./events.js";

/** One persisted event as the store holds it: the key it was stored under and the serialized event. */
export interface StoredEvent {
  readonly runId: string;
  readonly sequence: number;
  /** The event as stored (JSON text, redacted unless the store includes payloads). */
  readonly data: string;
}

/**
 * Append-only persistence of RunEvents. `append` validates the event and the run's ordering before it
 * stores anything; `readRun` returns the raw stored events in sequence order (replay re-validates them).
 */
export interface TraceStore {
  append(event: RunEvent): Promise<void>;
  readRun(runId: string): Promise<readonly StoredEvent[]>;
  /** Run ids in the order their first event was stored. */
  listRuns(): Promise<readonly string[]>;
  close(): Promise<void>;
}

/** The facts of an event the ordering rules look at. */
export interface EventPosition {
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly timestamp: string;
}

/**
 * Throws unless `next` may follow `previous` (undefined: `next` is the run's first event): a run
 * starts with `run.start` at sequence 0, sequences are contiguous, timestamps never go back, and
 * nothing follows `run.end` / `run.error`.
 */
export function assertFollows(previous: EventPosition | undefined, next: EventPosition): void {
  const where = { runId: next.runId, sequence: next.sequence, type: next.type };
  if (previous === undefined) {
    if (next.sequence !== 0) {
      throw new TraceError(
        "TRACE_SEQUENCE_GAP",
        `Run ${next.runId} has no event before sequence ${next.sequence}; a run starts at sequence 0.`,
        { ...where, expected: 0 },
      );
    }
    if (next.type !== "run.start") {
      throw new TraceError(
        "TRACE_ORDER_INVALID",
        `Run ${next.runId} starts with ${next.type}; the first event of a run must be run.start.`,
        where,
      );
    }
    return;
  }
  if (isTerminalType(previous.type)) {
    throw new TraceError(
      "TRACE_AFTER_TERMINAL",
      `Run ${next.runId} already ended with ${previous.type} at sequence ${previous.sequence}; start a new run instead.`,
      { ...where, terminalSequence: previous.sequence },
    );
  }
  if (next.sequence !== previous.sequence + 1) {
    throw new TraceError(
      "TRACE_SEQUENCE_GAP",
      `Run ${next.runId} expects sequence ${previous.sequence + 1} after ${previous.sequence}, got ${next.sequence}.`,
      { ...where, expected: previous.sequence + 1 },
    );
  }
  if (Date.parse(next.timestamp) < Date.parse(previous.timestamp)) {
    throw new TraceError(
      "TRACE_TIMESTAMP_REGRESSION",
      `Run ${next.runId} event ${next.sequence} is timestamped ${next.timestamp}, before ${previous.timestamp}; ` +
        "timestamps of a run must never go back.",
      { ...where, timestamp: next.timestamp, previousTimestamp: previous.timestamp },
    );
  }
  if (next.type === "run.start") {
    throw new TraceError(
      "TRACE_ORDER_INVALID",
      `Run ${next.runId} already started; run.start may only be its first event.`,
      where,
    );
  }
}
