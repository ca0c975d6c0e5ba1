/** The decision backend: chooses among local option IDs only, validated, fail closed. */
import { describe, expect, it } from "vitest";
import {
  type DecisionBackend,
  type DecisionInput,
  PlanningError,
  planWithDecision,
} from "../../../runtime/planner/index.js";
import type { RetrievalRequest } from "../../../runtime/retrieval/index.js";
import { endpoint, field, registryOf, tool } from "../../fixtures/catalogs.js";
import { codeOfAsync, only, text } from "./helpers.js";

describe("decision backend", () => {
  const registry = registryOf([
    tool("alpha", [
      endpoint("lookup", {
        description: "city weather lookup",
        fields: [field("id", { identifier: true, ...text }), field("a"), field("b"), field("c")],
      }),
    ]),
    tool("beta", [
      endpoint("lookup", {
        description: "city weather lookup",
        fields: [field("id", { identifier: true, ...text }), field("x"), field("y")],
      }),
    ]),
  ]);
  const request: RetrievalRequest = {
    query: "city weather",
    arguments: { city: "Paris", apiKey: "s3cret-token" },
  };

  function backend(answers: unknown[], seen: DecisionInput[] = []): DecisionBackend {
    return {
      decide(input) {
        seen.push(input);
        return answers.shift();
      },
    };
  }

  it("chooses among locally generated option IDs and never sees descriptions or arguments", async () => {
    const seen: DecisionInput[] = [];
    const p = await planWithDecision(
      registry,
      request,
      backend(
        [
          { selected: ["candidate-2"], confidence: 0.9 },
          { selected: ["field-1"], confidence: 0.8, scores: { "field-1": 0.8, "field-2": 0.1 } },
        ],
        seen,
      ),
    );
    expect(seen.map((s) => s.kind)).toEqual(["candidate", "fields"]);
    expect(seen[0]!.options).toEqual([
      { id: "candidate-1", label: "alpha.lookup" },
      { id: "candidate-2", label: "beta.lookup" },
    ]);
    expect(seen[1]!.options).toEqual([
      { id: "field-1", label: "x" },
      { id: "field-2", label: "y" },
    ]);
    for (const input of seen) {
      expect(Object.keys(input).sort()).toEqual([
        "kind",
        "maxSelections",
        "minSelections",
        "options",
        "query",
      ]);
      const json = JSON.stringify(input);
      expect(json).not.toContain("s3cret");
      expect(json).not.toContain("sha256:");
      expect(json).not.toContain("city weather lookup"); // no descriptions
    }
    const { call, why } = only(p);
    expect(call.tool).toBe("beta");
    expect(call.fields).toEqual(["id", "x"]);
    expect(why.fieldSelection).toBe("decision-backend");
    expect(why.fieldReasons).toEqual({ id: ["identifier"], x: ["decision-backend"] });
    expect(why.decisionBackend).toEqual({
      candidate: { used: true, abstained: false },
      fields: { used: true, abstained: false },
    });
  });

  it.each<[string, unknown]>([
    ["low confidence", { selected: ["candidate-2"], confidence: 0.2 }],
    ["explicit abstention", { abstain: true, confidence: 1 }],
  ])("abstains to the deterministic choice: %s", async (_name, answer) => {
    const p = await planWithDecision(registry, request, backend([answer, { abstain: true, confidence: 0 }]));
    const { call, why } = only(p);
    expect(call.tool).toBe("alpha");
    expect(call.fields).toEqual(["id", "a", "b", "c"]);
    expect(why.decisionBackend).toEqual({
      candidate: { used: true, abstained: true },
      fields: { used: true, abstained: true },
    });
  });

  it.each<[string, unknown, string]>([
    ["unknown option", { selected: ["candidate-9"], confidence: 1 }, "DECISION_UNKNOWN_OPTION"],
    ["duplicate option", { selected: ["field-1", "field-1"], confidence: 1 }, "DECISION_DUPLICATE_OPTION"],
    ["NaN confidence", { selected: ["candidate-1"], confidence: Number.NaN }, "DECISION_SCORE_INVALID"],
    [
      "infinite confidence",
      { selected: ["candidate-1"], confidence: Number.POSITIVE_INFINITY },
      "DECISION_SCORE_INVALID",
    ],
    ["confidence above 1", { selected: ["candidate-1"], confidence: 1.5 }, "DECISION_SCORE_INVALID"],
    [
      "negative score",
      { selected: ["candidate-1"], confidence: 1, scores: { "candidate-1": -0.1 } },
      "DECISION_SCORE_INVALID",
    ],
    [
      "score for an unknown option",
      { selected: ["candidate-1"], confidence: 1, scores: { nope: 0.5 } },
      "DECISION_UNKNOWN_OPTION",
    ],
    ["not an object", "candidate-1", "DECISION_MALFORMED"],
    ["null", null, "DECISION_MALFORMED"],
    [
      "extra key",
      { selected: ["candidate-1"], confidence: 1, toolCall: { tool: "x" } },
      "DECISION_MALFORMED",
    ],
    ["selected missing", { confidence: 1 }, "DECISION_MALFORMED"],
    ["two candidates", { selected: ["candidate-1", "candidate-2"], confidence: 1 }, "DECISION_MALFORMED"],
    ["empty selection", { selected: [], confidence: 1 }, "DECISION_MALFORMED"],
    ["confidence missing", { selected: ["candidate-1"] }, "DECISION_MALFORMED"],
    ["abstain not boolean", { abstain: "yes", confidence: 1 }, "DECISION_MALFORMED"],
  ])("fails closed: %s", async (_name, answer, code) => {
    const answers =
      code === "DECISION_DUPLICATE_OPTION" ? [{ abstain: true, confidence: 1 }, answer] : [answer];
    const error = await planWithDecision(registry, request, backend(answers)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).code).toBe(code);
  });

  it.each([[{ minConfidence: 2 }], [{ minConfidence: Number.NaN }], [{ decisionDepth: 0 }]])(
    "refuses bad decision options %j",
    async (options) => {
      const answer = backend([{ abstain: true, confidence: 1 }]);
      expect(await codeOfAsync(() => planWithDecision(registry, request, answer, options))).toBe(
        "INVALID_RETRIEVAL_REQUEST",
      );
    },
  );

  it("fails closed when the backend throws or rejects", async () => {
    const throwing: DecisionBackend = {
      decide() {
        throw new Error("boom");
      },
    };
    const rejecting: DecisionBackend = { decide: () => Promise.reject(new Error("boom")) };
    expect(await codeOfAsync(() => planWithDecision(registry, request, throwing))).toBe(
      "DECISION_BACKEND_FAILED",
    );
    expect(await codeOfAsync(() => planWithDecision(registry, request, rejecting))).toBe(
      "DECISION_BACKEND_FAILED",
    );
  });

  it("cannot pick a candidate that misses the evidence, and is not asked when only one is eligible", async () => {
    const withEvidence = registryOf([
      tool("alpha", [
        endpoint("lookup", { description: "city weather lookup", fields: [field("a", { unit: "K" })] }),
      ]),
      tool("beta", [endpoint("lookup", { description: "city weather lookup", fields: [field("b")] })]),
    ]);
    const seen: DecisionInput[] = [];
    const p = await planWithDecision(
      withEvidence,
      { query: "city weather", evidence: { units: true } },
      backend([], seen),
    );
    expect(seen).toEqual([]);
    expect(p.calls.map((c) => c.tool)).toEqual(["alpha"]);
    expect(p.rejected.map((r) => r.route)).toEqual(["beta.lookup"]);
    expect(p.explanations[0]!.decisionBackend.candidate).toEqual({ used: false });
  });

  it("keeps identifiers whatever the backend chose", async () => {
    const seen: DecisionInput[] = [];
    const p = await planWithDecision(
      registry,
      { query: "alpha city weather" },
      backend(
        [
          { abstain: true, confidence: 0 },
          { selected: ["field-3"], confidence: 1 },
        ],
        seen,
      ),
    );
    expect(seen[1]!.options.map((o) => o.label)).toEqual(["a", "b", "c"]);
    expect(p.calls[0]!.fields).toEqual(["id", "c"]);
  });
});
