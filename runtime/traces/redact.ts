/**
 * Payload redaction of RunEvents before they are persisted or streamed (docs/trust-model.md §23): tool
 * arguments and results are replaced by a `{ redacted: true }` marker, and error messages (which can
 * quote argument values, filter text or upstream bodies) by a structural message — code, route and
 * what the code means, no values — unless local code opts in to payloads. Tags and metadata are kept
 * in the store (they are never exported to OpenTelemetry).
 */
import { ERROR_CODES } from "../errors/errors.js";
import type { RunEvent } from "./events.js";

/** What a redacted `arguments` or `result` value becomes. */
export interface RedactedMarker {
  readonly redacted: true;
}

export interface RedactOptions {
  /** Keep argument and result values and error messages. Whatever stores the event then holds sensitive data. */
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

/**
 * The message a tool.error / run.error event carries without payloads: the route (when there is
 * one), the code and its documented meaning. It is built from those alone, so it holds no value.
 */
export function structuralErrorMessage(code: string, route?: string): string {
  const what = Object.hasOwn(ERROR_CODES, code)
    ? ERROR_CODES[code as keyof typeof ERROR_CODES]
    : "The call was refused or failed.";
  const where = route === undefined ? "" : `${route}: `;
  return `${where}${code}: ${what} (The error message is withheld from events because it can quote argument or upstream values; read the thrown error, or run with includePayloads: true.)`;
}

/** Returns the event with payload values and error messages replaced. Never mutates the input. */
export function redactEvent(event: RunEvent, options: RedactOptions): RunEvent {
  if (options.includePayloads) return event;
  switch (event.type) {
    case "tool.start":
      return event.arguments === undefined ? event : { ...event, arguments: { redacted: true } };
    case "tool.end":
      return event.result === undefined ? event : { ...event, result: { redacted: true } };
    case "tool.error":
      return { ...event, message: structuralErrorMessage(event.code, `${event.tool}.${event.endpoint}`) };
    case "run.error":
      return { ...event, message: structuralErrorMessage(event.code) };
    default:
      return event;
  }
}
