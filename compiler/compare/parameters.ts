/**
 * Parameter comparison (ParameterSpec, matched by name: required flag, location, wire name,
 * description, schema) and the endpoint input schema, minus the properties that merely repeat a
 * parameter (those are compared once, under `/parameters`).
 */
import type { EndpointSpec, JsonObject, ParameterSpec } from "schemarouter/internal";
import { canonical, type SchemaContext, show } from "./context.js";
import { byName, diffUnknownKeys } from "./members.js";
import { draft, type Emit, pointerOf } from "./report.js";
import { compareSchema } from "./schema.js";

const PARAMETER_KEYS = new Set(["name", "location", "wireName", "required", "schema", "description"]);

export function diffParameters(
  a: EndpointSpec,
  b: EndpointSpec,
  ctx: SchemaContext,
  mcp: boolean,
  emit: Emit,
): void {
  const pa = byName(a.parameters);
  const pb = byName(b.parameters);
  for (const name of [...new Set([...pa.keys(), ...pb.keys()])].sort()) {
    const where = `/parameters${pointerOf(name)}`;
    const before = pa.get(name);
    const after = pb.get(name);
    if (after === undefined) {
      emit(
        draft(
          where,
          "request.parameter.removed",
          `parameter "${name}" removed: calls that pass it are refused`,
          summary(before),
          undefined,
        ),
      );
    } else if (before === undefined) {
      emit(
        after.required
          ? draft(
              where,
              "request.parameter.required-added",
              `new required parameter "${name}": existing calls do not pass it`,
              undefined,
              summary(after),
            )
          : draft(
              where,
              "request.parameter.optional-added",
              `new optional parameter "${name}"`,
              undefined,
              summary(after),
            ),
      );
      if (after.location === "header") {
        emit(
          draft(
            where,
            "request.parameter.header-added",
            `new header parameter "${after.wireName ?? name}": review auth requirements`,
            undefined,
            summary(after),
          ),
        );
      }
    } else {
      diffParameter(before, after, where, ctx, mcp, emit);
    }
  }
  const order = (list: readonly ParameterSpec[], other: Map<string, ParameterSpec>): string[] =>
    list.filter((p) => other.has(p.name)).map((p) => p.name);
  const orderA = order(a.parameters, pb);
  const orderB = order(b.parameters, pa);
  if (canonical(orderA) !== canonical(orderB)) {
    emit(
      draft(
        "/parameters",
        "request.parameter.order-changed",
        "parameters reordered (callers pass them by name)",
        orderA,
        orderB,
      ),
    );
  }
}

function summary(parameter: ParameterSpec | undefined): unknown {
  if (parameter === undefined) return undefined;
  return {
    location: parameter.location,
    required: parameter.required,
    ...(parameter.wireName !== undefined ? { wireName: parameter.wireName } : {}),
  };
}

function diffParameter(
  a: ParameterSpec,
  b: ParameterSpec,
  where: string,
  ctx: SchemaContext,
  mcp: boolean,
  emit: Emit,
): void {
  if (a.required !== b.required) {
    emit(
      b.required
        ? draft(
            where + "/required",
            "request.parameter.became-required",
            `parameter "${a.name}" became required`,
            false,
            true,
          )
        : draft(
            where + "/required",
            "request.parameter.became-optional",
            `parameter "${a.name}" became optional`,
            true,
            false,
          ),
    );
  }
  if (a.location !== b.location) {
    emit(
      draft(
        where + "/location",
        "request.parameter.location-changed",
        `parameter "${a.name}" moved from ${a.location} to ${b.location}: review where the value goes`,
        a.location,
        b.location,
      ),
    );
  } else if (a.wireName !== b.wireName) {
    emit(
      a.location === "header"
        ? draft(
            where + "/wireName",
            "request.parameter.header-changed",
            `parameter "${a.name}" now travels in header ${show(b.wireName ?? b.name)}: review auth requirements`,
            a.wireName,
            b.wireName,
          )
        : draft(
            where + "/wireName",
            "request.parameter.wire-name-changed",
            `parameter "${a.name}" is sent as ${show(b.wireName ?? b.name)} instead of ${show(a.wireName ?? a.name)}`,
            a.wireName,
            b.wireName,
          ),
    );
  }
  if (a.description !== b.description) {
    emit(
      mcp
        ? draft(
            where + "/description",
            "request.parameter.description-changed.mcp",
            `MCP parameter "${a.name}" description changed; it reaches the model`,
            a.description,
            b.description,
          )
        : draft(
            where + "/description",
            "request.parameter.description-changed",
            `parameter "${a.name}" description changed (descriptive only)`,
            a.description,
            b.description,
          ),
    );
  }
  compareSchema(a.schema, b.schema, where + "/schema", ctx);
  diffUnknownKeys(a, b, PARAMETER_KEYS, emit, where);
}

/**
 * The input schema repeats the parameters as properties. A property that matches its parameter on
 * both sides (same schema text and required flag) is already compared under `/parameters`.
 */
export function diffInputSchema(a: EndpointSpec, b: EndpointSpec, ctx: SchemaContext): void {
  const sa = a.inputSchema;
  const sb = b.inputSchema;
  if (!isPlainObjectSchema(sa) || !isPlainObjectSchema(sb)) {
    compareSchema(sa, sb, "/inputSchema", ctx);
    return;
  }
  const pa = byName(a.parameters);
  const pb = byName(b.parameters);
  const names = new Set([...pa.keys(), ...pb.keys()]);
  const covered = [...names].filter(
    (name) => coveredBy(sa, pa.get(name), name) && coveredBy(sb, pb.get(name), name),
  );
  compareSchema(strip(sa, covered), strip(sb, covered), "/inputSchema", ctx);
}

function isPlainObjectSchema(schema: unknown): schema is JsonObject {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) && !("$ref" in schema);
}

function propertiesOf(schema: JsonObject): JsonObject {
  const props = schema.properties;
  return typeof props === "object" && props !== null && !Array.isArray(props) ? (props as JsonObject) : {};
}

function requiredOf(schema: JsonObject): readonly unknown[] {
  return Array.isArray(schema.required) ? schema.required : [];
}

function coveredBy(schema: JsonObject, parameter: ParameterSpec | undefined, name: string): boolean {
  const props = propertiesOf(schema);
  const inProps = Object.hasOwn(props, name);
  const required = requiredOf(schema).includes(name);
  if (parameter === undefined) return !inProps && !required;
  return inProps && required === parameter.required && canonical(props[name]) === canonical(parameter.schema);
}

function strip(schema: JsonObject, names: readonly string[]): JsonObject {
  if (names.length === 0) return schema;
  const props: Record<string, unknown> = { ...propertiesOf(schema) };
  for (const name of names) delete props[name];
  const out: Record<string, unknown> = { ...schema };
  if ("properties" in schema) out.properties = props;
  if ("required" in schema)
    out.required = requiredOf(schema).filter((r) => !(typeof r === "string" && names.includes(r)));
  return out as JsonObject;
}
