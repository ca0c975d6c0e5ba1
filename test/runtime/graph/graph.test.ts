import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CapabilityGraph } from "../../../runtime/graph/graph.js";
import type { EndpointSpec, ToolSpec } from "../../../runtime/model/specs.js";
import { endpoint, field, param, tool } from "../../fixtures/catalogs.js";

const petId = "petstore:pet-id";

const pets = tool("pets", [
  endpoint("listPets", {
    fields: [field("[].id", { path: ["*", "id"], semanticId: petId, identifier: true }), field("[].name")],
  }),
  endpoint("getPet", {
    parameters: [param("petId", true, { semanticId: petId })],
    fields: [field("id", { semanticId: petId, identifier: true }), field("name")],
  }),
  endpoint("createPet", {
    effect: "write",
    parameters: [param("name", true)],
    fields: [field("id", { semanticId: petId, identifier: true })],
  }),
]);

describe("capability graph: edges from declared semantic IDs only", () => {
  it("joins an output field to a parameter with the same semantic ID", () => {
    const graph = CapabilityGraph.build([pets]);
    expect(graph.incoming("pets.getPet")).toEqual([
      {
        kind: "supplies",
        from: "pets.createPet",
        field: "id",
        to: "pets.getPet",
        parameter: "petId",
        semanticId: petId,
        identifier: true,
      },
      {
        kind: "supplies",
        from: "pets.getPet",
        field: "id",
        to: "pets.getPet",
        parameter: "petId",
        semanticId: petId,
        identifier: true,
      },
      {
        kind: "supplies",
        from: "pets.listPets",
        field: "[].id",
        to: "pets.getPet",
        parameter: "petId",
        semanticId: petId,
        identifier: true,
      },
    ]);
  });

  it("never joins by name alone: a parameter named like a field but without a semantic ID has no supplier", () => {
    const graph = CapabilityGraph.build([
      tool("t", [
        endpoint("list", { fields: [field("id", { identifier: true })] }),
        endpoint("get", { parameters: [param("id", true)] }),
      ]),
    ]);
    expect(graph.edges()).toEqual([]);
  });

  it("accepts lists further semantic IDs a parameter takes", () => {
    const graph = CapabilityGraph.build([
      tool("a", [endpoint("find", { fields: [field("login", { semanticId: "gh:login" })] })]),
      tool("b", [
        endpoint("user", {
          parameters: [param("who", true, { semanticId: "gh:user", accepts: ["gh:login"] })],
        }),
      ]),
    ]);
    expect(graph.incoming("b.user").map((edge) => edge.from)).toEqual(["a.find"]);
  });

  it("reports declared preconditions, including ones naming routes that are not locked", () => {
    const graph = CapabilityGraph.build([
      tool("t", [endpoint("login", {}), endpoint("orders", { preconditions: ["t.login", "gone.route"] })]),
    ]);
    expect(graph.incoming("t.orders")).toEqual([
      { kind: "precondition", from: "gone.route", to: "t.orders" },
      { kind: "precondition", from: "t.login", to: "t.orders" },
    ]);
    expect(graph.outgoing("t.login")).toEqual([{ kind: "precondition", from: "t.login", to: "t.orders" }]);
    expect(graph.danglingPreconditions()).toEqual([{ route: "t.orders", precondition: "gone.route" }]);
  });
});

describe("capability graph: incremental rebuild equals a full build", () => {
  const ids = ["s:a", "s:b", "s:c", "s:d"];
  const endpointArb = (name: string): fc.Arbitrary<EndpointSpec> =>
    fc
      .record({
        provides: fc.subarray(ids),
        requires: fc.subarray(ids),
        pre: fc.subarray(["t0.e0", "t1.e1", "t2.e0", "t9.x"]),
      })
      .map(({ provides, requires, pre }) =>
        endpoint(name, {
          fields: provides.map((id, i) => field(`f${i}`, { semanticId: id, identifier: i === 0 })),
          parameters: requires.map((id, i) => param(`p${i}`, i === 0, { semanticId: id })),
          preconditions: pre,
        }),
      );
  const toolArb = (name: string): fc.Arbitrary<ToolSpec> =>
    fc.tuple(endpointArb("e0"), endpointArb("e1")).map((endpoints) => tool(name, endpoints));
  const names = ["t0", "t1", "t2", "t3"];

  it("any sequence of additions, replacements and removals gives the graph a full build gives", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc
              .tuple(fc.constant("put" as const), fc.constantFrom(...names))
              .chain(([op, name]) => toolArb(name).map((spec) => ({ op, name, spec }))),
            fc.constantFrom(...names).map((name) => ({ op: "remove" as const, name, spec: undefined })),
          ),
          { maxLength: 12 },
        ),
        (steps) => {
          let graph = CapabilityGraph.build([]);
          const live = new Map<string, ToolSpec>();
          for (const step of steps) {
            if (step.op === "put") {
              graph = graph.withTool(step.spec!);
              live.set(step.name, step.spec!);
            } else {
              graph = graph.without(step.name);
              live.delete(step.name);
            }
          }
          const full = CapabilityGraph.build(live.values());
          expect(graph.routes()).toEqual(full.routes());
          expect(graph.edges()).toEqual(full.edges());
          for (const route of full.routes()) {
            expect(graph.incoming(route)).toEqual(full.incoming(route));
            expect(graph.outgoing(route)).toEqual(full.outgoing(route));
          }
          expect(graph.danglingPreconditions()).toEqual(full.danglingPreconditions());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a new compatibility context rebuilds in full and keeps the new context", () => {
    const graph = CapabilityGraph.build([pets], { context: "rules:1" });
    const other = tool("other", [endpoint("x", { parameters: [param("p", true, { semanticId: petId })] })]);
    const next = graph.withTool(other, { context: "rules:2" });
    expect(next.context).toBe("rules:2");
    expect(next.edges()).toEqual(CapabilityGraph.build([pets, other], { context: "rules:2" }).edges());
    // The old graph is unchanged: readers holding it never see the update.
    expect(graph.routes()).not.toContain("other.x");
  });
});
