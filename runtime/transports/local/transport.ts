/**
 * Local TypeScript tools: a function plus JSON Schemas, defined by trusted local code. The same
 * definition is compiled (`kind: "local"` sources) and bound at run time, so a changed definition is
 * caught as drift against the lockfile.
 */

import type { InvocationContext, Invoker } from "../../boundary/invoker.js";
import { InvocationError, isSchemaRouterError } from "../../errors/errors.js";
import { deriveFields } from "../../model/derive-fields.js";
import type {
  Effect,
  EndpointSpec,
  FieldSpec,
  JsonSchema,
  ParameterSpec,
  ToolSpec,
} from "../../model/specs.js";
import type { ArgumentsOf } from "./schema-arguments.js";

export interface LocalHandlerContext {
  readonly signal: AbortSignal;
}

/**
 * One endpoint of a local tool. `A` is the handler's argument type: inferred from `input` by
 * `defineLocalTool` (docs/sources/local.md, "Typed handlers"), or declared with `localEndpoint<A>()`.
 */
export interface LocalEndpointDefinition<A = Readonly<Record<string, unknown>>> {
  readonly name: string;
  readonly description?: string;
  /** Trusted classification: local code decides what its function does. */
  readonly effect: Effect;
  /** Object schema of the arguments. */
  readonly input: JsonSchema;
  readonly output?: JsonSchema;
  /** Declared output fields; derived from `output` properties when omitted. */
  readonly fields?: readonly FieldSpec[];
  /** Receives arguments the boundary validated against `input`. (A method, so typed handlers fit.) */
  handler(args: A, context: LocalHandlerContext): unknown;
}

export interface LocalToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly provider?: string;
  readonly endpoints: readonly LocalEndpointDefinition[];
}

/** An endpoint whose handler's arguments are typed from its literal `input` schema `S`. */
export interface TypedLocalEndpoint<S extends JsonSchema> extends LocalEndpointDefinition<ArgumentsOf<S>> {
  readonly input: S;
}

/** A local tool definition whose endpoints' handlers are typed from their `input` schemas. */
export interface TypedLocalTool<E extends readonly JsonSchema[]> extends LocalToolDefinition {
  readonly endpoints: { readonly [K in keyof E]: TypedLocalEndpoint<E[K]> };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates and freezes a local tool definition (use it as the module's default export). Each
 * handler's arguments are typed from its endpoint's `input` schema, written inline or `as const`.
 */
export function defineLocalTool<const E extends readonly JsonSchema[]>(
  definition: TypedLocalTool<E>,
): TypedLocalTool<E> {
  if (!NAME.test(definition.name))
    throw new TypeError(`defineLocalTool: "${definition.name}" is not a valid tool name`);
  const names = new Set<string>();
  for (const endpoint of definition.endpoints) {
    if (!NAME.test(endpoint.name))
      throw new TypeError(`defineLocalTool: "${endpoint.name}" is not a valid endpoint name`);
    if (names.has(endpoint.name))
      throw new TypeError(`defineLocalTool: endpoint "${endpoint.name}" is defined twice`);
    names.add(endpoint.name);
    if (typeof endpoint.handler !== "function")
      throw new TypeError(`defineLocalTool: ${endpoint.name} needs a handler`);
  }
  return Object.freeze(definition);
}

/** An endpoint whose handler takes the declared argument type `A` (for a schema that is not a literal). */
export function localEndpoint<A>(endpoint: LocalEndpointDefinition<A>): LocalEndpointDefinition<A> {
  return endpoint;
}

export function isLocalToolDefinition(value: unknown): value is LocalToolDefinition {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as LocalToolDefinition).name === "string" &&
    Array.isArray((value as LocalToolDefinition).endpoints)
  );
}

/** The ToolSpec of a local tool definition (what the compiler locks and the runtime re-derives). */
export function localToolSpec(definition: LocalToolDefinition): ToolSpec {
  return {
    name: definition.name,
    namespace: definition.name,
    description: definition.description ?? "",
    provider: definition.provider ?? "local",
    accessMode: "local",
    remote: false,
    execution: { transport: "local", module: definition.name },
    endpoints: definition.endpoints.map(localEndpointSpec),
  };
}

function localEndpointSpec(definition: LocalEndpointDefinition): EndpointSpec {
  const input = typeof definition.input === "object" ? definition.input : {};
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
  const parameters: ParameterSpec[] = Object.entries(properties).map(([name, schema]) => ({
    name,
    location: "argument",
    required: required.has(name),
    schema,
    ...(typeof schema === "object" && typeof schema.description === "string"
      ? { description: schema.description }
      : {}),
  }));
  const output = definition.output ?? {};
  return {
    name: definition.name,
    description: definition.description ?? "",
    effect: definition.effect,
    parameters,
    inputSchema: definition.input,
    outputSchema: output,
    fields: definition.fields ? [...definition.fields] : deriveFields(output, {}).fields,
    execution: { kind: "local", function: definition.name },
  };
}

export function createLocalInvoker(definition: LocalToolDefinition): Invoker {
  const handlers = new Map(definition.endpoints.map((endpoint) => [endpoint.name, endpoint.handler]));
  return {
    async invoke(context: InvocationContext): Promise<unknown> {
      const handler = handlers.get(context.call.endpoint);
      const route = `${context.call.tool}.${context.call.endpoint}`;
      if (handler === undefined) {
        throw new InvocationError(
          "TOOL_ERROR",
          `${route}: the local tool has no handler for this endpoint.`,
          { route },
        );
      }
      try {
        return await handler(structuredClone(context.call.arguments) as Record<string, unknown>, {
          signal: context.signal,
        });
      } catch (error) {
        if (isSchemaRouterError(error)) throw error;
        throw new InvocationError(
          "TOOL_ERROR",
          `${route}: the local handler threw.`,
          { route },
          { cause: error },
        );
      }
    },
  };
}
