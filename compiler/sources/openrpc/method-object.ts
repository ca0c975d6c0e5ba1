/**
 * Method Objects → EndpointSpecs (OpenRPC 1.3 "Method Object"; docs/sources/openrpc.md "Methods"):
 * params by name or by position per `paramStructure` ("either" is sent as the source's `eitherParams`,
 * by position unless configured), the result as output fields, declared errors as metadata, and the
 * effect from local config only (JSON-RPC says nothing about side effects: `unclassified` otherwise).
 */
import type { CompatibilityIssue, EndpointSpec, JsonSchema, ParameterSpec } from "schemarouter/internal";
import type { OpenRpcSourceConfig } from "../../config/config.js";
import { inputSchemaOf } from "../input-schema.js";
import { type SchemaConverter, UnsupportedConstruct } from "../openapi/schema-object.js";
import {
  descriptorSchema,
  outputSchemaOf,
  parameterOf,
  RESERVED_NAMES,
  resultFields,
} from "./content-descriptor.js";
import { resolveObject } from "./reference-object.js";

type Node = Record<string, unknown>;

export interface MethodContext {
  readonly doc: Node;
  readonly converter: SchemaConverter;
  readonly config: OpenRpcSourceConfig;
  readonly report: (issue: CompatibilityIssue) => void;
}

/** Method names starting with `rpc.` are reserved for JSON-RPC system extensions (JSON-RPC 2.0 §4). */
const RESERVED_PREFIX = "rpc.";

function unsupported(pointer: string, construct: string, message: string): UnsupportedConstruct {
  return new UnsupportedConstruct({ pointer, construct, level: "unsupported", message });
}

/** The endpoint of one method (already resolved if it was a Reference Object). Throws UnsupportedConstruct. */
export function buildMethodEndpoint(context: MethodContext, method: Node, pointer: string): EndpointSpec {
  const { doc, converter, config, report } = context;
  const name = method.name as string;
  if (name.startsWith(RESERVED_PREFIX))
    throw unsupported(
      `${pointer}/name`,
      "reserved-method-name",
      `method "${name}" uses the reserved "rpc." prefix (JSON-RPC system extensions); it is not compiled.`,
    );
  const declared = typeof method.paramStructure === "string" ? method.paramStructure : "either";
  const paramStructure =
    declared === "by-name" || declared === "by-position" ? declared : (config.eitherParams ?? "by-position");
  const parameters: ParameterSpec[] = [];
  const params = Array.isArray(method.params) ? method.params : [];
  let optionalSeen = false;
  params.forEach((param, index) => {
    const at = `${pointer}/params/${index}`;
    const descriptor = resolveObject(doc, param, at, "param");
    const paramName = descriptor.name;
    if (typeof paramName !== "string" || paramName === "")
      throw unsupported(at, "param-name", `param ${index} of "${name}" has no name; the method is left out.`);
    if (RESERVED_NAMES.has(paramName))
      throw unsupported(
        at,
        "param-name",
        `param "${paramName}" of "${name}" is a name reserved by JavaScript objects; the method is left out.`,
      );
    if (parameters.some((parameter) => parameter.name === paramName))
      throw unsupported(
        at,
        "param-name",
        `param "${paramName}" of "${name}" is declared twice; the method is left out.`,
      );
    const parameter = parameterOf(converter, descriptor, at);
    if (parameter.required && optionalSeen)
      report({
        pointer: at,
        construct: "param-order",
        level: "partial",
        message: `required param "${paramName}" of "${name}" follows an optional one (OpenRPC puts required params first); every param before it must be given too.`,
      });
    if (!parameter.required) optionalSeen = true;
    if (descriptor.deprecated === true)
      report({
        pointer: at,
        construct: "deprecated-param",
        level: "partial",
        message: `param "${paramName}" of "${name}" is deprecated; it is still accepted.`,
      });
    parameters.push(parameter);
  });
  const inputSchema = inputSchemaOf(parameters, positionalDependencies(paramStructure, parameters));
  let result: JsonSchema = {};
  if (method.result === undefined) {
    report({
      pointer,
      construct: "notification",
      level: "partial",
      message: `method "${name}" declares no result (a notification); it is still called as a request with an id, and any result is accepted.`,
    });
  } else {
    const descriptor = resolveObject(doc, method.result, `${pointer}/result`, "result");
    result = descriptorSchema(converter, descriptor, `${pointer}/result`);
  }
  for (const construct of ["examples", "links"] as const) {
    if (Array.isArray(method[construct]) && (method[construct] as unknown[]).length > 0)
      report({
        pointer: `${pointer}/${construct}`,
        construct,
        level: "partial",
        message: `method "${name}" ${construct} are descriptive; they are not compiled.`,
      });
  }
  const description =
    typeof method.description === "string" && method.description !== ""
      ? method.description
      : typeof method.summary === "string"
        ? method.summary
        : "";
  const effect = Object.hasOwn(config.effects ?? {}, name) ? config.effects![name]! : "unclassified";
  const tags = (Array.isArray(method.tags) ? method.tags : [])
    .map((tag, index) => {
      try {
        const resolved = resolveObject(doc, tag, `${pointer}/tags/${index}`, "tag");
        return typeof resolved.name === "string" ? resolved.name : undefined;
      } catch {
        return undefined;
      }
    })
    .filter((tag): tag is string => tag !== undefined);
  return {
    name,
    description,
    effect,
    parameters,
    inputSchema,
    outputSchema: outputSchemaOf(result),
    fields: resultFields(result, converter.defs),
    execution: { kind: "openrpc", rpcMethod: name, paramStructure },
    metadata: {
      paramStructure: declared,
      ...(tags.length > 0 ? { tags } : {}),
      ...(method.deprecated === true ? { deprecated: true } : {}),
      ...(typeof method.summary === "string" ? { summary: method.summary } : {}),
      errors: declaredErrors(doc, method, pointer),
    },
  };
}

/**
 * By position, a param can only be sent when every param before it is (an array has no gaps): each
 * optional param requires the ones before it. Nothing is added by name.
 */
function positionalDependencies(
  paramStructure: "by-name" | "by-position",
  parameters: readonly ParameterSpec[],
): Record<string, JsonSchema> {
  if (paramStructure !== "by-position") return {};
  const dependent: Record<string, string[]> = {};
  parameters.forEach((parameter, index) => {
    const before = parameters
      .slice(0, index)
      .filter((earlier) => !earlier.required)
      .map((earlier) => earlier.name);
    if (before.length > 0) dependent[parameter.name] = before;
  });
  return Object.keys(dependent).length > 0 ? { dependentRequired: dependent } : {};
}

/** Declared Error Objects as `{ code, message }` (descriptive: the transport types every error by its code). */
function declaredErrors(doc: Node, method: Node, pointer: string): { code: number; message: string }[] {
  const errors: { code: number; message: string }[] = [];
  (Array.isArray(method.errors) ? method.errors : []).forEach((error, index) => {
    try {
      const resolved = resolveObject(doc, error, `${pointer}/errors/${index}`, "error");
      if (typeof resolved.code === "number" && typeof resolved.message === "string")
        errors.push({ code: resolved.code, message: resolved.message });
    } catch {
      // A dangling error reference is descriptive only: left out of the metadata.
    }
  });
  return errors.sort((a, b) => a.code - b.code);
}
