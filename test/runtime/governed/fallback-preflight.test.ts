/**
 * A fallback's `fieldMap` is a claim, never evidence. Preflight recomputes
 * counterparts from the local FieldSpecs (the planner's `isCounterpart` rule: equal semantic IDs, or a
 * shared field ID or alias, with equal units) and refuses any other mapping (FALLBACK_REFUSED,
 * reason "field-not-counterpart") before anything runs.
 */
import { describe, expect, it } from "vitest";
import { InvocationUnavailableError } from "../../../runtime/errors/errors.js";
import type { FallbackRoute } from "../../../runtime/governed/fallback.js";
import { type RegisteredTool, Registry, registerTool } from "../../../runtime/load/registry.js";
import type { FieldSpec, ToolCall, ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";

function tool(name: string, provider: string, fields: readonly FieldSpec[]): ToolSpec {
  return {
    name,
    namespace: name,
    description: name,
    provider,
    accessMode: "local",
    remote: false,
    execution: { transport: "local", module: "x" },
    endpoints: [
      {
        name: "ep",
        description: "d",
        effect: "read",
        parameters: [],
        inputSchema: { type: "object", additionalProperties: false },
        outputSchema: { type: "object" },
        fields,
        execution: { kind: "local", function: "f" },
      },
    ],
  };
}

const register = (spec: ToolSpec): RegisteredTool =>
  registerTool({ tool: spec, source: spec.name, sourceKind: "local", defs: {} });
const pinned = (registered: RegisteredTool, fields: readonly string[]): ToolCall => ({
  tool: registered.tool.name,
  endpoint: "ep",
  arguments: {},
  fields,
  endpointFingerprint: registered.endpointFingerprints.get("ep")!,
  toolFingerprint: registered.fingerprint,
});

function setup(primaryFields: readonly FieldSpec[], altFields: readonly FieldSpec[]) {
  const primary = register(tool("primary", "P", primaryFields));
  const alt = register(tool("alt", "Q", altFields));
  const router = SchemaRouter.fromRegistry(new Registry([primary, alt]));
  const calls = { primary: 0, alt: 0 };
  router.bind("primary", {
    invoke: async () => {
      calls.primary++;
      throw new InvocationUnavailableError("down", { reason: "connection" });
    },
  });
  router.bind("alt", {
    invoke: async () => {
      calls.alt++;
      return { title_text: "T", internal_notes: "INTERNAL-ONLY", temp: 70, label: "L" };
    },
  });
  return { primary, alt, router, calls };
}

describe("fallback fieldMap is checked against local contracts", () => {
  it("refuses a forged fieldMap that maps a planned field to an unrelated one, before anything runs", async () => {
    const { primary, alt, router, calls } = setup(
      [{ id: "title", path: ["title"] }],
      [
        { id: "title_text", path: ["title_text"] },
        { id: "internal_notes", path: ["internal_notes"] },
      ],
    );
    const fallback: FallbackRoute = {
      ...pinned(alt, ["internal_notes"]),
      fieldMap: { title: "internal_notes" },
    };
    await expect(router.call({ ...pinned(primary, ["title"]), fallbacks: [fallback] })).rejects.toMatchObject(
      {
        code: "FALLBACK_REFUSED",
        details: {
          reason: "field-not-counterpart",
          fallback: 0,
          mappings: [{ field: "title", counterpart: "internal_notes" }],
        },
      },
    );
    expect(calls).toEqual({ primary: 0, alt: 0 });
    await router.close();
  });

  it.each<[string, FieldSpec, FieldSpec, Readonly<Record<string, string>> | undefined, boolean]>([
    [
      "an alias",
      { id: "title", path: ["title"] },
      { id: "label", path: ["label"], aliases: ["title"] },
      { title: "label" },
      true,
    ],
    [
      "an equal semantic ID",
      { id: "title", path: ["title"], semanticId: "schema:name" },
      { id: "label", path: ["label"], semanticId: "schema:name" },
      { title: "label" },
      true,
    ],
    [
      "different semantic IDs despite a shared alias",
      { id: "title", path: ["title"], semanticId: "schema:name" },
      { id: "label", path: ["label"], semanticId: "schema:note", aliases: ["title"] },
      { title: "label" },
      false,
    ],
    [
      "an equal ID in another unit (no fieldMap)",
      { id: "temp", path: ["temp"], unit: "degC" },
      { id: "temp", path: ["temp"], unit: "degF" },
      undefined,
      false,
    ],
    [
      "an equal ID (no fieldMap)",
      { id: "temp", path: ["temp"], unit: "degC" },
      { id: "temp", path: ["temp"], unit: "degC" },
      undefined,
      true,
    ],
    [
      "a mapping to an undeclared field",
      { id: "title", path: ["title"] },
      { id: "title", path: ["title"] },
      { title: "nope" },
      false,
    ],
  ])("checks a mapping through %s", async (_name, need, candidate, fieldMap, accepted) => {
    const { primary, alt, router, calls } = setup([need], [candidate]);
    const fallback: FallbackRoute = {
      ...pinned(alt, [candidate.id]),
      ...(fieldMap !== undefined ? { fieldMap } : {}),
    };
    const call = router.call({ ...pinned(primary, [need.id]), fallbacks: [fallback] });
    if (accepted) {
      await expect(call).resolves.toMatchObject({ tool: "alt", fields: [candidate.id] });
      expect(calls).toEqual({ primary: 1, alt: 1 });
    } else {
      await expect(call).rejects.toMatchObject({
        code: "FALLBACK_REFUSED",
        details: { reason: "field-not-counterpart" },
      });
      expect(calls).toEqual({ primary: 0, alt: 0 });
    }
    await router.close();
  });
});
