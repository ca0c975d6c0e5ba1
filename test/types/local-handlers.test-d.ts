/**
 * Type-level tests: a local tool handler's arguments are typed from its endpoint's `input` JSON Schema
 * (inline or `as const`), or from the type `localEndpoint<A>()` declares (docs/sources/local.md).
 */
import { defineLocalTool, type LocalToolDefinition, localEndpoint, SchemaRouter } from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";

describe("typed local handlers", () => {
  it("types arguments from an inline input schema: required, optional, enums, arrays, nested objects", () => {
    defineLocalTool({
      name: "weather",
      endpoints: [
        {
          name: "current",
          effect: "read",
          input: {
            type: "object",
            properties: {
              station: { type: "string", minLength: 2 },
              days: { type: "integer" },
              unit: { enum: ["C", "F"] },
              tags: { type: "array", items: { type: "string" } },
              near: {
                type: "object",
                properties: { lat: { type: "number" }, lon: { type: "number" } },
                required: ["lat", "lon"],
                additionalProperties: false,
              },
              note: { type: ["string", "null"] },
            },
            required: ["station"],
            additionalProperties: false,
          },
          handler: (args) => {
            expectTypeOf(args.station).toEqualTypeOf<string>();
            expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
            expectTypeOf(args.unit).toEqualTypeOf<"C" | "F" | undefined>();
            expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
            expectTypeOf(args.near).toEqualTypeOf<
              { readonly lat: number; readonly lon: number } | undefined
            >();
            expectTypeOf(args.note).toEqualTypeOf<string | null | undefined>();
            // @ts-expect-error not declared, and additionalProperties is false
            void args.stationId;
            // @ts-expect-error station is a string
            const n: number = args.station;
            return { station: args.station.toUpperCase(), n };
          },
        },
        {
          name: "history",
          effect: "read",
          input: { type: "object", properties: { station: { type: "string" } }, required: ["station"] },
          handler: (args) => {
            // Without additionalProperties: false, other keys are unknown values.
            expectTypeOf(args.station).toEqualTypeOf<string>();
            expectTypeOf(args.anything).toEqualTypeOf<unknown>();
            return [];
          },
        },
      ],
    });
  });

  it("types arguments from a schema declared `as const`", () => {
    const input = {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    } as const;
    const tool = defineLocalTool({
      name: "contacts",
      endpoints: [
        {
          name: "get",
          effect: "read",
          input,
          handler: (args) => {
            expectTypeOf(args).toEqualTypeOf<{ readonly id: string }>();
            return { id: args.id };
          },
        },
      ],
    });
    // Still a LocalToolDefinition, for SchemaRouter.load({ local }).
    expectTypeOf(tool).toExtend<LocalToolDefinition>();
    void SchemaRouter.load({ local: { contacts: tool } });
  });

  it("takes a declared argument type with localEndpoint<A>() when the schema is not a literal", () => {
    const schema: { readonly [key: string]: never } = JSON.parse("{}");
    defineLocalTool({
      name: "notes",
      endpoints: [
        localEndpoint<{ readonly text: string }>({
          name: "add",
          effect: "write",
          input: schema,
          handler: (args) => {
            expectTypeOf(args).toEqualTypeOf<{ readonly text: string }>();
            return { length: args.text.length };
          },
        }),
      ],
    });
  });

  it("keeps a record of unknown values for a schema it cannot read", () => {
    const loose: { readonly [key: string]: string } = { type: "object" };
    defineLocalTool({
      name: "misc",
      endpoints: [
        {
          name: "run",
          effect: "read",
          input: loose,
          handler: (args) => {
            expectTypeOf(args).toEqualTypeOf<Readonly<Record<string, unknown>>>();
            return null;
          },
        },
      ],
    });
  });
});
