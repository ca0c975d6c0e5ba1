/**
 * Operation Objects → EndpointSpecs: name, side effect from the method, input from parameters and
 * request body, output from the 2xx JSON response, fields from the output schema.
 * Spec: OpenAPI 3.1.0 §4.8.10 (Operation Object), §4.8.16–17 (Responses / Response Object),
 * §4.8.18 (Callback Object), §4.8.30 (Security Requirement Object).
 */

import type {
  CompatibilityIssue,
  Effect,
  EndpointSpec,
  HttpMethod,
  HttpResponseBody,
  JsonSchema,
} from "schemarouter/internal";
import { deriveFields, encodePointerToken } from "schemarouter/internal";
import { buildInput, jsonMediaOf, RESERVED_NAMES } from "./parameter-object.js";
import { mediaTypeExamples, type ResponseExample } from "./response-examples.js";
import { classifyNonJson } from "./response-media.js";
import { type SchemaConverter, UnsupportedConstruct } from "./schema-object.js";
import { type ApiKeyScheme, reportCookieCredentials } from "./security-scheme-object.js";

type Node = Record<string, unknown>;

export const METHODS: readonly HttpMethod[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

/** Side effect from the HTTP method (trusted: it is what the transport will send). */
export const METHOD_EFFECT: Readonly<Record<HttpMethod, Effect>> = {
  get: "read",
  head: "read",
  options: "read",
  post: "write",
  put: "write",
  patch: "write",
  delete: "destructive",
  trace: "unclassified",
};

export interface OperationInput {
  readonly name: string;
  readonly path: string;
  readonly method: HttpMethod;
  readonly pathItem: Node;
  readonly operation: Node;
  readonly globalSecurity: unknown;
  /** The document's apiKey security schemes: their credential names are never tool parameters. */
  readonly credentials?: readonly ApiKeyScheme[];
  /** Receives the operation's 2xx response examples, each with its compiled schema (response-examples.ts). */
  readonly examples?: ResponseExample[];
}

export function buildEndpoint(
  input: OperationInput,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
): EndpointSpec {
  const { operation, method, path } = input;
  const pathItemPointer = `/paths/${encodePointerToken(path)}`;
  const pointer = `${pathItemPointer}/${method}`;
  if (operation.callbacks !== undefined) {
    report({
      pointer: `${pointer}/callbacks`,
      construct: "callback",
      level: "unsupported",
      message: "callbacks are not compiled; the operation itself is.",
    });
  }
  const contract = buildInput(
    input.pathItem,
    operation,
    pointer,
    pathItemPointer,
    converter,
    report,
    input.credentials ?? [],
  );
  const proto = contract.parameters.find(
    (parameter) => (parameter.wireName ?? parameter.name) === "__proto__",
  );
  if (proto !== undefined)
    throw new UnsupportedConstruct({
      pointer,
      construct: "reserved-name",
      level: "unsupported",
      message: `${proto.location} parameter "__proto__" cannot be sent safely (as a key it is an object's prototype); the operation is left out.`,
    });
  for (const parameter of contract.parameters)
    if (parameter.wireName !== undefined && RESERVED_NAMES.has(parameter.wireName))
      report({
        pointer,
        construct: "reserved-name",
        level: "partial",
        message: `${parameter.location} parameter "${parameter.wireName}" is offered as "${parameter.name}" (a reserved name); it is sent as "${parameter.wireName}".`,
      });
  const pathParameters = new Set(
    contract.parameters.filter((p) => p.location === "path").map((p) => p.wireName ?? p.name),
  );
  for (const [, placeholder] of path.matchAll(/\{([^}]+)\}/g)) {
    if (!pathParameters.has(placeholder!)) {
      throw new UnsupportedConstruct({
        pointer,
        construct: "undeclared-path-parameter",
        level: "unsupported",
        message: `path template ${path} uses {${placeholder}}, which no path parameter declares; the operation is left out.`,
      });
    }
  }
  const output = buildOutput(operation, pointer, converter, report, input.examples);
  const derived = deriveFields(output.schema, converter.defs);
  const fields = derived.fields.filter((field) => !field.path.some((segment) => RESERVED_NAMES.has(segment)));
  if (fields.length < derived.fields.length)
    report({
      pointer: output.pointer,
      construct: "reserved-name",
      level: "partial",
      message: `output properties named ${[...new Set(derived.fields.filter((field) => !fields.includes(field)).flatMap((field) => field.path.filter((segment) => RESERVED_NAMES.has(segment))))].join(", ")} are validated and returned whole, but are not selectable fields.`,
    });
  if (derived.usedComposition) {
    report({
      pointer: output.pointer,
      construct: "composition",
      level: "partial",
      message: "output fields were derived from merged allOf properties.",
    });
  }
  const security = securityOf(operation.security ?? input.globalSecurity);
  reportCookieCredentials(security, input.credentials ?? [], report);
  const description = [operation.summary, operation.description]
    .filter((part) => typeof part === "string" && part !== "")
    .join("\n\n");
  return {
    name: input.name,
    description,
    effect: METHOD_EFFECT[method],
    parameters: contract.parameters,
    inputSchema: contract.inputSchema,
    outputSchema: output.schema,
    fields,
    execution: {
      kind: "http",
      method,
      path,
      ...(contract.requestBody !== undefined ? { requestBody: contract.requestBody } : {}),
      ...(output.responseBody !== undefined ? { responseBody: output.responseBody } : {}),
      successStatus: output.status,
      ...(security.length > 0 ? { security } : {}),
    },
    metadata: {
      operationId: typeof operation.operationId === "string" ? operation.operationId : null,
      tags: Array.isArray(operation.tags)
        ? (operation.tags.filter((tag) => typeof tag === "string") as string[])
        : [],
      deprecated: operation.deprecated === true,
    },
  };
}

function buildOutput(
  operation: Node,
  pointer: string,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
  examples: ResponseExample[] | undefined,
): { schema: JsonSchema; status: number[]; pointer: string; responseBody?: HttpResponseBody } {
  const responses = (operation.responses ?? {}) as Node;
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  if (codes.length === 0) {
    report({
      pointer: `${pointer}/responses`,
      construct: "no-success-response",
      level: "partial",
      message: "no 2xx response is declared; any 2xx JSON body is accepted.",
    });
    return { schema: {}, status: range2xx(), pointer: `${pointer}/responses` };
  }
  const schemas: JsonSchema[] = [];
  const status: number[] = [];
  let text: HttpResponseBody | undefined;
  let json = false;
  let firstPointer = `${pointer}/responses/${codes[0]}`;
  for (const code of codes) {
    let response = responses[code] as Node | undefined;
    let where = `${pointer}/responses/${code}`;
    if (typeof response?.$ref === "string") {
      where = response.$ref.slice(1);
      response = converter.resolveObject(response.$ref, `${pointer}/responses/${code}`, "response");
    }
    status.push(...(code.toUpperCase() === "2XX" ? range2xx() : [Number(code)]));
    const content = (response?.content ?? undefined) as Node | undefined;
    if (content === undefined || Object.keys(content).length === 0) {
      schemas.push({ type: "null" });
      continue;
    }
    const media = jsonMediaOf(content);
    if (media === undefined) {
      const other = classifyNonJson(content);
      if (other.kind === "binary")
        throw new UnsupportedConstruct({
          pointer: `${where}/content`,
          construct: "binary-response",
          level: "unsupported",
          message: `the ${code} response is binary (${other.mediaType}), which a tool output cannot carry; the operation is left out.`,
        });
      if (other.kind === "other")
        throw new UnsupportedConstruct({
          pointer: `${where}/content`,
          construct: "non-json-response",
          level: "unsupported",
          message: `the ${code} response is not JSON (${Object.keys(content).join(", ")}); the operation is left out.`,
        });
      if (json) throw mixedResponses(pointer, code);
      text ??= { kind: "text", mediaType: other.mediaType };
      const key = Object.keys(content).find(
        (entry) => entry.split(";")[0]!.trim().toLowerCase() === other.mediaType,
      )!;
      const textPointer = `${where}/content/${encodePointerToken(key)}/schema`;
      if (schemas.length === 0) firstPointer = textPointer;
      schemas.push(converter.convert(other.schema, textPointer));
      continue;
    }
    if (text !== undefined) throw mixedResponses(pointer, code);
    json = true;
    const jsonType = media.mediaType;
    if (media.range)
      report({
        pointer: `${where}/content/${encodePointerToken(jsonType)}`,
        construct: "media-type-range",
        level: "partial",
        message: `the ${code} response is declared as "${jsonType}" with a schema; it is read as JSON.`,
      });
    const schemaPointer = `${where}/content/${encodePointerToken(jsonType)}/schema`;
    if (schemas.length === 0) firstPointer = schemaPointer;
    const converted = converter.convert((content[jsonType] as Node).schema ?? {}, schemaPointer);
    const schema = converter.access.apply(converted, "response");
    schemas.push(schema);
    examples?.push(
      ...mediaTypeExamples(
        content[jsonType] as Node,
        `${where}/content/${encodePointerToken(jsonType)}`,
        schema,
        converter,
      ),
    );
  }
  const unique = dedupe(schemas);
  if (unique.length > 1) {
    report({
      pointer: `${pointer}/responses`,
      construct: "multiple-success-responses",
      level: "partial",
      message: `${codes.join(", ")} declare different bodies; the output is validated as anyOf them.`,
    });
  }
  return {
    schema: unique.length === 1 ? unique[0]! : { anyOf: unique },
    status: [...new Set(status)].sort((a, b) => a - b),
    pointer: firstPointer,
    ...(text !== undefined ? { responseBody: text } : {}),
  };
}

function mixedResponses(pointer: string, code: string): UnsupportedConstruct {
  return new UnsupportedConstruct({
    pointer: `${pointer}/responses`,
    construct: "mixed-success-responses",
    level: "unsupported",
    message: `2xx responses mix JSON and text bodies (at ${code}); one call has one output kind, so the operation is left out.`,
  });
}

function dedupe(schemas: JsonSchema[]): JsonSchema[] {
  const seen = new Map<string, JsonSchema>();
  for (const schema of schemas) seen.set(JSON.stringify(schema), schema);
  return [...seen.values()];
}

function range2xx(): number[] {
  return Array.from({ length: 100 }, (_, index) => 200 + index);
}

function securityOf(requirements: unknown): string[] {
  if (!Array.isArray(requirements)) return [];
  const names = new Set<string>();
  for (const requirement of requirements) {
    if (requirement !== null && typeof requirement === "object")
      for (const name of Object.keys(requirement)) names.add(name);
  }
  return [...names].sort();
}
