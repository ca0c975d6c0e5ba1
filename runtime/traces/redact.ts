/**
 * Payload redaction of RunEvents before they are persisted (seed 000, finding 23): tool arguments and
 * results are replaced by a `{ redacted: true }` marker unless local code opts in to payloads.
 * Tags, metadata and error messages are kept in the store (they are never exported to OpenTelemetry).
 */
import type { RunEvent } from "../events.js";

/** What a redacted `arguments` or `result` value becomes. */
export interface RedactedMarker {
  readonly redacted: true;
}

export interface RedactOptions {
  /** Keep argument and result values. Whatever stores the event then holds sensitive data. */
  readonly includePayloads: boolean;
}

export function isRedactedMarker(value: unknown): value is RedactedMarker {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    (value as { redacted?: unknown }).redacted === true
  );
}

/** Returns the event with payload values replaced by a marker. Never mutates the input. */
export function redactEvent(event: RunEvent, options: RedactOptions): RunEvent {
  if (options.includePayloads) return event;
  if (event.type === "tool.start" && event.arguments !== undefined) {
    return { ...event, arguments: { redacted: true } };
  }
  if (event.type === "tool.end" && event.result !== undefined) {
    return { ...event, result: { redacted: true } };
  }
  return event;
}
