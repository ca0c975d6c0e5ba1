/** Planned calls: pinned fingerprints, arguments (missing, undeclared, caller overrides), explanations, maxCalls and coverage. */
import { describe, expect, it } from "vitest";
import { plan, type QueryProposal } from "../../../runtime/planner/index.js";
import { createRetriever, type RetrievalRequest } from "../../../runtime/retrieval/index.js";
import { endpoint, field, registryOf, tool } from "../../fixtures/catalogs.js";
import { codeOf, observations, only, single } from "./helpers.js";

describe("calls and arguments", () => {
  const registry = single(observations, { provider: "meteo" });

  it("pins both fingerprints and has the ToolCall shape", () => {
    const { call } = only(plan(registry, { query: "humidity", arguments: { city: "Oslo" } }));
    const registered = registry.get("wx")!;
    expect(call).toEqual({
      tool: "wx",
      endpoint: "observations",
      route: "wx.observations",
      effect: "read",
      arguments: { city: "Oslo" },
      fields: ["station", "humidity"],
      endpointFingerprint: registered.endpointFingerprints.get("observations"),
      toolFingerprint: registered.fingerprint,
    });
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.isFrozen(call.arguments)).toBe(true);
  });

  it("lists missing required arguments without inventing them, and drops undeclared ones", () => {
    const p = plan(registry, {
      query: "humidity in Paris",
      arguments: { date: "2024-01-01", token: "s3cret", units: "K" },
    });
    const { call, why } = only(p);
    expect(call.arguments).toEqual({ date: "2024-01-01" });
    expect(Object.hasOwn(call.arguments, "city")).toBe(false);
    expect(p.missingArguments).toEqual([
      { call: 0, route: "wx.observations", name: "city", location: "argument" },
    ]);
    expect(why.ignoredArguments).toEqual(["token", "units"]);
  });

  it("lets caller arguments override proposed ones", () => {
    const proposal: QueryProposal = {
      fields: [],
      semanticIds: [],
      units: [],
      arguments: { city: "Lyon", date: "today" },
      dropped: [],
    };
    const { call, why } = only(
      plan(registry, { query: "humidity", arguments: { city: "Paris" } }, { proposal }),
    );
    expect(call.arguments).toEqual({ city: "Paris", date: "today" });
    expect(why.argumentSources).toEqual({ city: "caller", date: "proposal" });
  });

  it("plans the same over a registry and over a cached retriever", () => {
    const request = { query: "temperature", arguments: { city: "Rome" } };
    expect(plan(createRetriever(registry), request)).toEqual(plan(registry, request));
  });

  it("explains without model reasoning", () => {
    const { why } = only(plan(registry, { query: "humidity" }));
    expect(Object.keys(why).sort()).toEqual(
      [
        "argumentSources",
        "covers",
        "decisionBackend",
        "droppedFields",
        "evidence",
        "excludedFallbacks",
        "fieldReasons",
        "fieldSelection",
        "ignoredArguments",
        "proposedRoute",
        "rank",
        "route",
        "score",
        "scoreComponents",
      ].sort(),
    );
    expect(why.decisionBackend).toEqual({ candidate: { used: false }, fields: { used: false } });
    expect(why.scoreComponents.field).toBeGreaterThan(0);
  });

  it("says why nothing was planned", () => {
    const p = plan(registry, { query: "stock exchange prices" });
    expect(p.calls).toEqual([]);
    expect(p.reason).toBe("no-candidate");
    expect(p.coverage).toEqual({ required: [], covered: [], uncovered: [] });
  });

  it.each([[{ depth: 0 }], [{ depth: 201 }], [{ maxFallbacks: 0 }], [{ minCoverage: 3 }]])(
    "refuses bad options %j",
    (options) => {
      expect(codeOf(() => plan(registry, { query: "humidity" }, options))).toBe("INVALID_RETRIEVAL_REQUEST");
    },
  );
});

describe("maxCalls and coverage", () => {
  const registry = registryOf([
    tool("air", [
      endpoint("temperature_now", {
        fields: [field("t", { semanticId: "wx:air_temperature", unit: "degC" })],
      }),
    ]),
    tool("sea", [
      endpoint("sea_state", { fields: [field("waves", { semanticId: "sea:wave_height", unit: "m" })] }),
    ]),
    tool("both", [endpoint("unrelated", { fields: [field("x", { semanticId: "other:x" })] })]),
  ]);
  const request: RetrievalRequest = {
    query: "conditions",
    semanticIds: ["wx:air_temperature", "sea:wave_height"],
  };

  it("plans one call by default and reports what it does not cover", () => {
    const p = plan(registry, request);
    expect(p.calls).toHaveLength(1);
    expect(p.coverage.uncovered).toHaveLength(1);
  });

  it("adds calls that cover the rest, up to maxCalls", () => {
    const p = plan(registry, { ...request, maxCalls: 3 });
    expect(p.calls.map((c) => c.route).sort()).toEqual(["air.temperature_now", "sea.sea_state"]);
    expect(p.coverage.uncovered).toEqual([]);
    expect(p.explanations.map((e) => e.covers.length)).toEqual([1, 1]);
  });
});
