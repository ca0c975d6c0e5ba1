/** OpenTelemetry export: structure only, never a payload, message, reason, tag or metadata value. */
import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  Link,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
} from "@opentelemetry/api";
import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { createOtelExporter } from "../../../runtime/traces/otel.js";
import { FP_ENDPOINT, FP_TOOL, failedRun, fullRun, SECRETS, syncCodeOf } from "./helpers.js";

/** A Tracer (the OpenTelemetry API's own interface) that records what it is given. */
class RecordingTracer implements Tracer {
  readonly spans: RecordedSpan[] = [];
  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const parent = context === undefined ? undefined : trace.getSpan(context);
    const span = new RecordedSpan(name, this.spans.length, options, parent);
    this.spans.push(span);
    return span;
  }
  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === "function" ? b : a)) as F;
    const options = typeof a === "function" ? {} : a;
    const context = typeof b === "function" ? undefined : b;
    return fn(this.startSpan(name, options, context)) as ReturnType<F>;
  }
}

class RecordedSpan implements Span {
  readonly attributes: Record<string, AttributeValue | undefined>;
  readonly events: { name: string; attributes: Attributes }[] = [];
  readonly exceptions: Exception[] = [];
  readonly links: Link[] = [];
  status: SpanStatus | undefined;
  ended = false;
  constructor(
    public name: string,
    readonly id: number,
    options: SpanOptions,
    readonly parent: Span | undefined,
  ) {
    this.attributes = { ...options.attributes };
  }
  spanContext(): SpanContext {
    return { traceId: "a".repeat(32), spanId: this.id.toString(16).padStart(16, "0"), traceFlags: 1 };
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(name: string, attributesOrStartTime?: Attributes | TimeInput): this {
    const isAttributes =
      typeof attributesOrStartTime === "object" && !(attributesOrStartTime instanceof Date);
    this.events.push({
      name,
      attributes: isAttributes && !Array.isArray(attributesOrStartTime) ? attributesOrStartTime : {},
    });
    return this;
  }
  addLink(link: Link): this {
    this.links.push(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.links.push(...links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(exception: Exception): void {
    this.exceptions.push(exception);
  }
  /** Every string this span would export. */
  exported(): string[] {
    const values = [this.attributes, ...this.events.map((event) => event.attributes)].flatMap((attributes) =>
      Object.entries(attributes).flatMap(([key, value]) => [key, ...[value].flat().map(String)]),
    );
    return [this.name, ...this.events.map((event) => event.name), this.status?.message ?? "", ...values];
  }
}

describe("OpenTelemetry export", () => {
  it("exports structure only: no payload, message, reason, tag or metadata value", async () => {
    const tracer = new RecordingTracer();
    const exporter = await createOtelExporter({ tracer });
    for (const event of [...fullRun("r1"), ...failedRun("r2")]) exporter.export(event);
    const exported = tracer.spans.flatMap((span) => span.exported());
    for (const secret of SECRETS) expect(exported.filter((value) => value.includes(secret))).toEqual([]);
    expect(tracer.spans.every((span) => span.ended && span.exceptions.length === 0)).toBe(true);

    const [run1, call0, call1, run2] = tracer.spans as [
      RecordedSpan,
      RecordedSpan,
      RecordedSpan,
      RecordedSpan,
    ];
    expect(tracer.spans.map((span) => span.name)).toEqual([
      "schemarouter.run",
      "schemarouter.call",
      "schemarouter.call",
      "schemarouter.run",
    ]);
    expect(call0.parent).toBe(run1);
    expect(call1.parent).toBe(run1);
    expect(run1.attributes).toEqual({
      "schemarouter.run_id": "r1",
      "schemarouter.planned_calls": 2,
      "schemarouter.calls": 2,
      "schemarouter.duration_ms": 40,
    });
    expect(call0.attributes).toMatchObject({
      "schemarouter.call_index": 0,
      "schemarouter.endpoint_fingerprint": FP_ENDPOINT,
      "schemarouter.tool_fingerprint": FP_TOOL,
      "schemarouter.attempts": 2,
      "schemarouter.duration_ms": 12.5,
      "schemarouter.fields": ["full_name"],
    });
    expect(call0.events.map((event) => event.name)).toEqual([
      "schemarouter.attempt",
      "schemarouter.attempt",
      "schemarouter.fallback",
    ]);
    expect(call0.events[2]?.attributes).toEqual({
      "schemarouter.from_tool": "github",
      "schemarouter.from_endpoint": "repos/get",
      "schemarouter.to_tool": "github-mcp",
      "schemarouter.to_endpoint": "get_repo",
    });
    expect(call1.attributes).toMatchObject({
      "schemarouter.error_code": "HTTP_STATUS",
      "schemarouter.attempts": 1,
    });
    expect(call1.status).toEqual({ code: 2 });
    expect(run2.attributes).toEqual({
      "schemarouter.run_id": "r2",
      "schemarouter.error_code": "BUDGET_EXCEEDED",
    });
  });

  it("ends the spans of an interrupted (replayed) run as incomplete on close", async () => {
    const tracer = new RecordingTracer();
    const exporter = await createOtelExporter({ tracer });
    for (const event of fullRun("cut").slice(0, 3)) exporter.export(event);
    expect(tracer.spans.map((span) => span.ended)).toEqual([false, false]);
    exporter.close();
    expect(tracer.spans.map((span) => [span.ended, span.attributes["schemarouter.incomplete"]])).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it("refuses an invalid event with INVALID_RUN_EVENT", async () => {
    const exporter = await createOtelExporter({ tracer: new RecordingTracer() });
    expect(
      await syncCodeOf(() => exporter.export({ ...fullRun("r")[0], tags: "x" } as unknown as RunEvent)),
    ).toBe("INVALID_RUN_EVENT");
  });

  it("uses the global tracer provider when no tracer is given", async () => {
    const tracer = new RecordingTracer();
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    try {
      const exporter = await createOtelExporter();
      for (const event of fullRun("g")) exporter.export(event);
      expect(tracer.spans.map((span) => span.name)).toEqual([
        "schemarouter.run",
        "schemarouter.call",
        "schemarouter.call",
      ]);
    } finally {
      trace.disable();
    }
  });
});
