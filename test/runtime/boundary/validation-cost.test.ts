/**
 * Validation runs in time linear in the response, whatever formats and keywords a remote schema
 * declares, and a deadline that passes while synchronous validation runs still stops the run
 * (docs/runtime/execution-boundary.md, "Validation cost"). Worst-case timings are in bench/validation.mjs.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidatorSet } from "../../../runtime/boundary/validation.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";

const require = createRequire(import.meta.url);
const cleanups = cleanupAfterEach();

/** ajv with ajv-formats' own formats and ajv's own uniqueItems: the reference semantics. */
function referenceAjv() {
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const addFormats = require("ajv-formats");
  const ajv = new Ajv2020({ strict: false });
  (addFormats.default ?? addFormats)(ajv);
  return ajv;
}

const SAMPLES: Record<string, readonly string[]> = {
  url: [
    "http://a.example/x?y#z",
    "ftp://h.example/p",
    "https://",
    "mailto:a@b",
    "http://a b",
    "http://x.example:8080/",
  ],
  hostname: [
    "a",
    "a.b",
    "a-b.c",
    "-a.b",
    "a..b",
    `${"a".repeat(63)}.b`,
    `${"a".repeat(64)}.b`,
    "a.",
    `${"a.".repeat(126)}a`,
    `${"a.".repeat(127)}a`,
  ],
  duration: ["P1Y", "PT1H", "P", "PT", "P1W", "P1YT", "P1DT2H3M4S", "P1Y1W"],
  email: ["a@b.c", "a@b", "@b.c", "a.b@c.d", "a..b@c.d"],
  ipv4: ["1.2.3.4", "256.1.1.1", "1.2.3"],
  ipv6: ["::1", "1::2::3", "fe80::1%eth0", "2001:db8::"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"],
  "uri-reference": ["/a/b", "a b", "#f", "http://x/%zz"],
  "uri-template": ["/a/{b}", "/a/{b", "{+x}"],
  "json-pointer": ["", "/a~0b", "/a~2"],
  "relative-json-pointer": ["0", "1/a", "01", "0#"],
  date: ["2020-02-29", "2021-02-29", "2020-13-01"],
  "date-time": ["2020-01-01T00:00:00Z", "2020-01-01 00:00:00Z", "2020-01-01T25:00:00Z"],
  regex: ["a+", "(", "[a-z]"],
};

describe("formats", () => {
  it.each(Object.entries(SAMPLES))("%s agrees with ajv-formats on fixed samples", (format, samples) => {
    const reference = referenceAjv().compile({ type: "string", format });
    const ours = new ValidatorSet();
    for (const sample of samples) {
      const want = reference(sample) as boolean;
      expect([sample, ours.validate({ type: "string", format }, sample).length === 0]).toEqual([
        sample,
        want,
      ]);
    }
  });

  it.each(Object.keys(SAMPLES).filter((format) => format !== "url"))(
    "%s agrees with ajv-formats on generated strings",
    (format) => {
      const reference = referenceAjv().compile({ type: "string", format });
      const ours = new ValidatorSet();
      const text = fc.string({
        unit: fc.constantFrom(..."aZ09-._~:/?#[]@!$&'()*+,;=% {}PTYMDWHS\u00e9"),
        maxLength: 24,
      });
      fc.assert(
        fc.property(text, (value) => {
          expect(ours.validate({ type: "string", format }, value).length === 0).toBe(reference(value));
        }),
        { numRuns: 400 },
      );
    },
  );

  it.each(["http://10.0.0.1/", "http://192.168.1.1/", "ftp://localhost/p", "http://intranet/"])(
    "`url` accepts %s, which ajv-formats refuses (private-network and dotless hosts: a shape check only)",
    (value) => {
      expect(referenceAjv().compile({ type: "string", format: "url" })(value)).toBe(false);
      expect(new ValidatorSet().validate({ type: "string", format: "url" }, value)).toEqual([]);
    },
  );
});

describe("uniqueItems", () => {
  it("decides exactly as ajv's pairwise comparison", () => {
    const reference = referenceAjv().compile({ type: "array", uniqueItems: true });
    const ours = new ValidatorSet();
    const item = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom("a", "b", 1.5, true, null),
      // JSON.parse makes plain objects only.
      fc.dictionary(fc.constantFrom("x", "y"), fc.integer({ min: 0, max: 2 }), {
        maxKeys: 2,
        noNullPrototype: true,
      }),
      fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), (array) => {
        expect(ours.validate({ type: "array", uniqueItems: true }, array).length === 0).toBe(
          reference(array),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("names the first duplicate of a large array of objects", () => {
    const items = Array.from({ length: 20_000 }, (_, index) => ({ id: index, tags: [index, { k: index }] }));
    items.push({ tags: [7, { k: 7 }], id: 7 });
    const violations = new ValidatorSet().validate({ type: "array", uniqueItems: true }, items);
    expect(violations).toEqual([
      expect.objectContaining({ keyword: "uniqueItems", message: expect.stringContaining("item 20000") }),
    ]);
  });
});

describe("the deadline after synchronous work", () => {
  it("a run whose wall-clock budget passed while a large result was validated is stopped", async () => {
    // 300,000 timestamps, unique: linear, but well over the 5 ms budget on any machine.
    const big = Array.from({ length: 300_000 }, (_, index) => new Date(index * 1000).toISOString());
    const spec: ToolSpec = {
      name: "slow",
      namespace: "slow",
      description: "",
      provider: "test",
      accessMode: "local",
      remote: false,
      execution: { transport: "local", module: "test" },
      endpoints: [
        {
          name: "get",
          description: "",
          effect: "read",
          parameters: [],
          inputSchema: { type: "object", additionalProperties: false },
          outputSchema: { type: "array", items: { type: "string", format: "date-time" }, uniqueItems: true },
          fields: [],
          execution: { kind: "local", function: "get" },
        },
      ],
    };
    const registered = registerTool({ tool: spec, source: "slow", sourceKind: "local", defs: {} });
    const router = SchemaRouter.fromRegistry(new Registry([registered]), {
      bindings: {
        slow: {
          invoker: {
            invoke: () => Promise.resolve(big),
          },
        },
      },
    });
    cleanups.push(() => router.close());
    const call = {
      tool: "slow",
      endpoint: "get",
      arguments: {},
      endpointFingerprint: registered.endpointFingerprints.get("get")!,
      toolFingerprint: registered.fingerprint,
    };
    await expect(
      router.invoke(call, { budget: new ExecutionBudget({ maxWallClockMs: 5 }) }),
    ).rejects.toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: { limit: "wallClock" },
    });
  });
});
