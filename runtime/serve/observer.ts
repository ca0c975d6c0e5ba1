/**
 * Run events of one served call (docs/serve.md, "Traces, progress and logs"): each event goes to the
 * configured trace store first (so the trace is complete before anything else happens), then becomes
 * an MCP progress notification (when the request asked for progress) and a log message (when the
 * session set a log level). What reaches the client is structural — event type, route, attempt,
 * duration, error code — never arguments, results or error messages.
 */
import type { RunEvent } from "../traces/events.js";
import type { StoredEvent, TraceStore } from "../traces/store.js";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Whether a message at `level` passes a session's `threshold` (none set: nothing is sent). */
export function logs(threshold: LogLevel | undefined, level: LogLevel): boolean {
  return threshold !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

export interface EventSink {
  /** A progress notification (a request's progress token was given). */
  readonly progress?: (progress: number, message: string) => Promise<void> | void;
  /** A log message at `level` (already filtered by the session's threshold). */
  readonly log?: (level: LogLevel, data: Readonly<Record<string, unknown>>) => Promise<void> | void;
  readonly logLevel?: LogLevel;
}

/** A TraceStore for one run: the configured store (if any), then the sink. Closing it closes nothing. */
export class CallObserver implements TraceStore {
  #progress = 0;

  constructor(
    private readonly store: TraceStore | undefined,
    private readonly sink: EventSink,
  ) {}

  async append(event: RunEvent): Promise<void> {
    if (this.store !== undefined) await this.store.append(event);
    const facts = factsOf(event);
    // Awaited: the client gets each notification before the call goes on (and before its result).
    const message = [facts.event, facts.route, facts.code].filter((part) => part !== undefined).join(" ");
    await this.sink.progress?.(++this.#progress, message);
    const level: LogLevel = event.type === "tool.error" || event.type === "run.error" ? "warning" : "debug";
    if (this.sink.log !== undefined && logs(this.sink.logLevel, level)) await this.sink.log(level, facts);
  }

  readRun(runId: string): Promise<readonly StoredEvent[]> {
    return this.store !== undefined ? this.store.readRun(runId) : Promise.resolve([]);
  }

  listRuns(): Promise<readonly string[]> {
    return this.store !== undefined ? this.store.listRuns() : Promise.resolve([]);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The structural facts of an event that a client may see. */
function factsOf(event: RunEvent): Record<string, string | number> {
  const facts: Record<string, string | number> = { event: event.type, runId: event.runId };
  switch (event.type) {
    case "tool.start":
      return { ...facts, route: `${event.tool}.${event.endpoint}`, attempt: event.attempt };
    case "tool.end":
      return {
        ...facts,
        route: `${event.tool}.${event.endpoint}`,
        attempts: event.attempts,
        durationMs: Math.round(event.durationMs),
      };
    case "tool.error":
      return {
        ...facts,
        route: `${event.tool}.${event.endpoint}`,
        code: event.code,
        attempts: event.attempts,
      };
    case "run.error":
      return { ...facts, code: event.code };
    case "run.end":
      return { ...facts, durationMs: Math.round(event.durationMs) };
    default:
      return facts;
  }
}
