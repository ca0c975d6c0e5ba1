/**
 * OpenTelemetry export of RunEvents (docs/trust-model.md §20): one `schemarouter.run` span per run and
 * one `schemarouter.call` child span per logical call, carrying structural attributes only (run id,
 * call index, tool, endpoint, fingerprints, attempts, durations, declared field IDs, error code).
 * Argument and result values, RunConfig metadata, tags, error messages and fallback reasons are
 * never exported. `@opentelemetry/api` is an optional peer, imported lazily.
 */
import type { Attributes, Span, Tracer } from "@opentelemetry/api";
import { type RunEvent, type RunEventOf, TraceError, validateRunEvent } from "./events.js";

type OtelApi = typeof import("@opentelemetry/api");

/** The members of an OpenTelemetry `Span` the exporter uses (structural, so no OTel types leak). */
export interface OtelSpanLike {
  setAttribute(key: string, value: never): unknown;
  setAttributes(attributes: never): unknown;
  addEvent(name: string, attributes?: never, startTime?: never): unknown;
  setStatus(status: never): unknown;
  end(endTime?: never): void;
}

/**
 * An OpenTelemetry `Tracer` (from `@opentelemetry/api`), typed structurally by the member the
 * exporter calls, so the public declarations do not depend on the OTel API's types.
 */
export interface OtelTracerLike {
  startSpan(name: string, options?: never, context?: never): OtelSpanLike;
}

export interface OtelExporterOptions {
  /** Where spans go (an OpenTelemetry Tracer); defaults to `trace.getTracer("schemarouter")` of the global provider. */
  readonly tracer?: OtelTracerLike;
}

export interface OtelExporter {
  /** Validates one event, then starts, annotates or ends the spans it concerns. */
  export(event: RunEvent): void;
  /** Ends every span still open (an interrupted run), marked `schemarouter.incomplete`. */
  close(): void;
}

const A = {
  runId: "schemarouter.run_id",
  callIndex: "schemarouter.call_index",
  tool: "schemarouter.tool",
  endpoint: "schemarouter.endpoint",
  endpointFingerprint: "schemarouter.endpoint_fingerprint",
  toolFingerprint: "schemarouter.tool_fingerprint",
  attempt: "schemarouter.attempt",
  attempts: "schemarouter.attempts",
  durationMs: "schemarouter.duration_ms",
  fields: "schemarouter.fields",
  errorCode: "schemarouter.error_code",
  plannedCalls: "schemarouter.planned_calls",
  calls: "schemarouter.calls",
  incomplete: "schemarouter.incomplete",
} as const;

export async function createOtelExporter(options: OtelExporterOptions = {}): Promise<OtelExporter> {
  let api: OtelApi;
  try {
    api = await import("@opentelemetry/api");
  } catch (error) {
    throw new TraceError(
      "OPTIONAL_DEPENDENCY_MISSING",
      "OpenTelemetry export needs the optional peer dependency @opentelemetry/api: run `npm install @opentelemetry/api`.",
      { dependency: "@opentelemetry/api" },
      { cause: error },
    );
  }
  // The tracer is an OTel Tracer (OtelTracerLike is its public structural shape).
  const tracer = options.tracer as Tracer | undefined;
  return new RunEventSpans(api, tracer ?? api.trace.getTracer("schemarouter"));
}

interface RunSpans {
  readonly span: Span;
  readonly calls: Map<number, Span>;
}

class RunEventSpans implements OtelExporter {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #runs = new Map<string, RunSpans>();

  constructor(api: OtelApi, tracer: Tracer) {
    this.#api = api;
    this.#tracer = tracer;
  }

  export(input: RunEvent): void {
    const event = validateRunEvent(input);
    const time = new Date(event.timestamp);
    switch (event.type) {
      case "run.start":
        this.#run(event, time);
        return;
      case "plan.end":
        this.#run(event, time).span.setAttribute(A.plannedCalls, event.calls);
        return;
      case "tool.start":
        this.#call(event, time).addEvent(
          "schemarouter.attempt",
          {
            [A.attempt]: event.attempt,
            [A.tool]: event.tool,
            [A.endpoint]: event.endpoint,
            [A.endpointFingerprint]: event.endpointFingerprint,
            [A.toolFingerprint]: event.toolFingerprint,
          },
          time,
        );
        return;
      case "tool.fallback":
        this.#call(event, time).addEvent(
          "schemarouter.fallback",
          {
            "schemarouter.from_tool": event.fromTool,
            "schemarouter.from_endpoint": event.fromEndpoint,
            "schemarouter.to_tool": event.toTool,
            "schemarouter.to_endpoint": event.toEndpoint,
          },
          time,
        );
        return;
      case "tool.end": {
        const span = this.#call(event, time);
        span.setAttributes({
          [A.tool]: event.tool,
          [A.endpoint]: event.endpoint,
          [A.attempts]: event.attempts,
          [A.durationMs]: event.durationMs,
          [A.fields]: [...event.fields],
        });
        span.setStatus({ code: this.#api.SpanStatusCode.OK });
        this.#endCall(event, span, time);
        return;
      }
      case "tool.error": {
        const span = this.#call(event, time);
        span.setAttributes({
          [A.tool]: event.tool,
          [A.endpoint]: event.endpoint,
          [A.attempts]: event.attempts,
          [A.errorCode]: event.code,
        });
        span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
        this.#endCall(event, span, time);
        return;
      }
      case "run.end": {
        const run = this.#run(event, time);
        run.span.setAttributes({ [A.calls]: event.calls, [A.durationMs]: event.durationMs });
        run.span.setStatus({ code: this.#api.SpanStatusCode.OK });
        this.#endRun(event.runId, run, time);
        return;
      }
      case "run.error": {
        const run = this.#run(event, time);
        run.span.setAttribute(A.errorCode, event.code);
        run.span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
        this.#endRun(event.runId, run, time);
        return;
      }
      default:
        assertNever(event);
    }
  }

  close(): void {
    for (const [runId, run] of [...this.#runs]) this.#endRun(runId, run, new Date(), true);
  }

  #run(event: RunEvent, time: Date): RunSpans {
    const existing = this.#runs.get(event.runId);
    if (existing !== undefined) return existing;
    const span = this.#tracer.startSpan("schemarouter.run", {
      kind: this.#api.SpanKind.INTERNAL,
      startTime: time,
      attributes: { [A.runId]: event.runId },
    });
    const run = { span, calls: new Map<number, Span>() };
    this.#runs.set(event.runId, run);
    return run;
  }

  #call(event: RunEventOf<"tool.start" | "tool.end" | "tool.error" | "tool.fallback">, time: Date): Span {
    const run = this.#run(event, time);
    const existing = run.calls.get(event.callIndex);
    if (existing !== undefined) return existing;
    const attributes: Attributes = { [A.runId]: event.runId, [A.callIndex]: event.callIndex };
    if (event.type === "tool.start") {
      attributes[A.tool] = event.tool;
      attributes[A.endpoint] = event.endpoint;
      attributes[A.endpointFingerprint] = event.endpointFingerprint;
      attributes[A.toolFingerprint] = event.toolFingerprint;
    }
    const parent = this.#api.trace.setSpan(this.#api.ROOT_CONTEXT, run.span);
    const span = this.#tracer.startSpan(
      "schemarouter.call",
      { kind: this.#api.SpanKind.INTERNAL, startTime: time, attributes },
      parent,
    );
    run.calls.set(event.callIndex, span);
    return span;
  }

  #endCall(event: { readonly runId: string; readonly callIndex: number }, span: Span, time: Date): void {
    span.end(time);
    this.#runs.get(event.runId)?.calls.delete(event.callIndex);
  }

  /** Ends the run span and any call span a terminal event left open (those are incomplete). */
  #endRun(runId: string, run: RunSpans, time: Date, incomplete = false): void {
    for (const span of run.calls.values()) {
      span.setAttribute(A.incomplete, true);
      span.end(time);
    }
    run.calls.clear();
    if (incomplete) run.span.setAttribute(A.incomplete, true);
    run.span.end(time);
    this.#runs.delete(runId);
  }
}

function assertNever(value: never): never {
  throw new TraceError("INVALID_RUN_EVENT", `Unhandled RunEvent type ${(value as { type?: unknown }).type}.`);
}
