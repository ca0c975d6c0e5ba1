/** RunEvent validation (every event type, every refusal) and payload redaction. */
import { describe, expect, it } from "vitest";
import { type RunEvent, type RunEventOf, validateRunEvent } from "../../../runtime/traces/events.js";
import { isRedactedMarker, redactEvent } from "../../../runtime/traces/redact.js";
import { BASE, failedRun, fullRun } from "./helpers.js";

describe("validateRunEvent", () => {
  it("accepts every event type and returns a detached copy", () => {
    const events = [...fullRun("r1"), ...failedRun("r2")];
    expect(new Set(events.map((event) => event.type)).size).toBe(8);
    for (const event of events) {
      const valid = validateRunEvent(event);
      expect(valid).toEqual(event);
      expect(valid).not.toBe(event);
    }
    const start = events[2] as RunEventOf<"tool.start">;
    const copy = validateRunEvent(start) as RunEventOf<"tool.start">;
    (copy.arguments as { owner: string }).owner = "changed";
    expect((start.arguments as { owner: string }).owner).toBe("SECRET-ARG");
  });

  const [runStart, , toolStart, , , toolEnd] = fullRun("r1") as [
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
  ];
  const cases: [string, unknown, string][] = [
    ["not an object", null, "$"],
    ["an array", [runStart], "$"],
    ["a class instance", new (class Event {})(), "$"],
    ["an unknown type", { ...runStart, type: "run.paused" }, "$.type"],
    ["an extra envelope key", { ...runStart, extra: 1 }, "$.extra"],
    ["a key of another event type", { ...runStart, calls: 1 }, "$.calls"],
    ["an undefined required key", { ...toolEnd, fields: undefined }, "$.fields"],
    [
      "a deleted required key",
      (({ tool: _tool, ...rest }) => rest)(toolEnd as RunEventOf<"tool.end">),
      "$.tool",
    ],
    ["a string sequence", { ...runStart, sequence: "0" }, "$.sequence"],
    ["a negative sequence", { ...runStart, sequence: -1 }, "$.sequence"],
    ["a fractional sequence", { ...runStart, sequence: 0.5 }, "$.sequence"],
    ["an empty run id", { ...runStart, runId: "" }, "$.runId"],
    ["a date-only timestamp", { ...runStart, timestamp: "2025-01-01" }, "$.timestamp"],
    [
      "a timestamp with an offset",
      { ...runStart, timestamp: "2025-01-01T01:00:00.000+01:00" },
      "$.timestamp",
    ],
    ["an impossible date", { ...runStart, timestamp: "2025-02-30T00:00:00.000Z" }, "$.timestamp"],
    ["tags that are not strings", { ...runStart, tags: [1] }, "$.tags"],
    ["metadata that is not strings", { ...runStart, metadata: { a: 1 } }, "$.metadata"],
    ["a malformed fingerprint", { ...toolStart, toolFingerprint: "md5:00" }, "$.toolFingerprint"],
    ["attempt 0", { ...toolStart, attempt: 0 }, "$.attempt"],
    ["explicitly undefined arguments", { ...toolStart, arguments: undefined }, "$.arguments"],
    ["non-JSON arguments (undefined inside)", { ...toolStart, arguments: { a: undefined } }, "$.arguments"],
    ["non-JSON arguments (a Date)", { ...toolStart, arguments: { at: new Date(BASE) } }, "$.arguments"],
    ["non-JSON arguments (a function)", { ...toolStart, arguments: [() => 1] }, "$.arguments"],
    ["a NaN result", { ...toolEnd, result: Number.NaN }, "$.result"],
    ["a negative duration", { ...toolEnd, durationMs: -1 }, "$.durationMs"],
    ["an error code that is prose", { ...fullRun("r1")[7], code: "it broke" }, "$.code"],
  ];
  it.each(cases)("refuses %s with INVALID_RUN_EVENT", (_name, value, path) => {
    let caught: unknown;
    try {
      validateRunEvent(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_RUN_EVENT", details: { path } });
  });

  it("refuses cyclic arguments", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => validateRunEvent({ ...toolStart, arguments: cyclic })).toThrow(
      expect.objectContaining({ code: "INVALID_RUN_EVENT" }),
    );
  });
});

describe("redactEvent", () => {
  it("replaces arguments and results with a marker and keeps everything else", () => {
    const events = fullRun("r1");
    const redacted = events.map((event) => redactEvent(event, { includePayloads: false }));
    const start = redacted[2] as RunEventOf<"tool.start">;
    const end = redacted[5] as RunEventOf<"tool.end">;
    expect(start.arguments).toEqual({ redacted: true });
    expect(end.result).toEqual({ redacted: true });
    expect(isRedactedMarker(start.arguments)).toBe(true);
    expect(redacted[0]).toEqual(events[0]);
    expect((events[2] as RunEventOf<"tool.start">).arguments).toMatchObject({ owner: "SECRET-ARG" });
    expect(events.map((event) => redactEvent(event, { includePayloads: true }))).toEqual(events);
  });
});
