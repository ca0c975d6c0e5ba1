/**
 * Parameter Objects and Request Body Objects → ParameterSpecs plus the endpoint input schema.
 * Spec: OpenAPI 3.1.0 §4.8.12 (Parameter Object; "in": path, query, header, cookie) and §4.8.13
 * (Request Body Object). JSON object bodies are flattened into `body` parameters. Parameters that
 * carry an apiKey security scheme's credential (§4.8.27) are left out and reported.
 */

import type { CompatibilityIssue, HttpRequestBody, JsonSchema, ParameterSpec } from "schemarouter/internal";
import { encodePointerToken, isHeaderName, isSensitiveHeader } from "schemarouter/internal";
import { inputSchemaOf } from "../input-schema.js";
import { MAX_MULTIPART_PARTS, planMultipart } from "./multipart-parts.js";
import { type SchemaConverter, UnsupportedConstruct } from "./schema-object.js";
import { type ApiKeyScheme, credentialParameterIssue, credentialSchemeOf } from "./security-scheme-object.js";

type Node = Record<string, unknown>;

/** Headers the OpenAPI spec says to ignore as parameters (§4.8.12.1). */
const IGNORED_HEADERS = new Set(["accept", "content-type"]);

export interface InputContract {
  readonly parameters: ParameterSpec[];
  readonly inputSchema: JsonSchema;
  readonly requestBody?: HttpRequestBody;
}

export function buildInput(
  pathItem: Node,
  operation: Node,
  pointer: string,
  pathItemPointer: string,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
  credentials: readonly ApiKeyScheme[] = [],
): InputContract {
  const merged = new Map<string, { param: Node; pointer: string }>();
  const collect = (list: unknown, base: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, index) => {
      let param = entry as Node;
      let where = `${base}/${index}`;
      if (typeof param?.$ref === "string") {
        where = param.$ref.slice(1);
        param = converter.resolveObject(param.$ref, `${base}/${index}`, "parameter");
      }
      if (typeof param?.name !== "string" || typeof param.in !== "string") return;
      merged.set(`${param.in}:${param.name}`, { param, pointer: where });
    });
  };
  collect(pathItem.parameters, `${pathItemPointer}/parameters`);
  collect(operation.parameters, `${pointer}/parameters`);

  const parameters: ParameterSpec[] = [];
  const taken = new Set<string>();
  for (const { param, pointer: where } of merged.values()) {
    const location = param.in as string;
    const wire = param.name as string;
    const required = location === "path" ? true : param.required === true;
    // A parameter carrying an apiKey scheme's credential is never model-visible (docs/trust-model.md §7).
    const credential = credentialSchemeOf(credentials, location, wire);
    if (credential !== undefined) {
      report(credentialParameterIssue(credential, where));
      continue;
    }
    if (location === "cookie") {
      const issue: CompatibilityIssue = {
        pointer: where,
        construct: "cookie-param",
        level: "unsupported",
        message: `cookie parameter "${wire}" is not supported${required ? "; the operation is left out" : " and is not offered"}.`,
      };
      if (required) throw new UnsupportedConstruct(issue);
      report(issue);
      continue;
    }
    if (location === "header" && !isHeaderName(wire)) {
      const issue: CompatibilityIssue = {
        pointer: where,
        construct: "header-name",
        level: "unsupported",
        message: `header parameter ${JSON.stringify(wire.slice(0, 80))} is not an RFC 9110 field name${required ? "; the operation is left out" : " and is not offered"}.`,
      };
      if (required) throw new UnsupportedConstruct(issue);
      report(issue);
      continue;
    }
    if (location === "header" && (isSensitiveHeader(wire) || IGNORED_HEADERS.has(wire.toLowerCase()))) {
      report({
        pointer: where,
        construct: "sensitive-header",
        level: "partial",
        message: `header "${wire}" is not a tool parameter; set it in the trusted runtime binding (headers).`,
      });
      continue;
    }
    if (location !== "path" && location !== "query" && location !== "header") {
      const issue: CompatibilityIssue = {
        pointer: `${where}/in`,
        construct: "parameter-location",
        level: "unsupported",
        message: `parameter "${wire}" is "in: ${location}", which is not an OpenAPI 3.0/3.1 location${required ? "; the operation is left out" : " and is not offered"}.`,
      };
      if (required) throw new UnsupportedConstruct(issue);
      report(issue);
      continue;
    }
    let schema: JsonSchema = {};
    if (param.schema !== undefined) schema = converter.convert(param.schema, `${where}/schema`);
    else if (param.content !== null && typeof param.content === "object") {
      const [mediaType, media] = Object.entries(param.content as Node)[0] ?? [];
      report({
        pointer: `${where}/content`,
        construct: "parameter-content",
        level: "partial",
        message: `parameter "${wire}" uses content (${mediaType}); it is sent as JSON text.`,
      });
      schema = converter.convert(
        (media as Node | undefined)?.schema ?? {},
        `${where}/content/${encodePointerToken(mediaType ?? "")}/schema`,
      );
    }
    if (param.style !== undefined && !["simple", "form"].includes(param.style as string)) {
      report({
        pointer: `${where}/style`,
        construct: "parameter-style",
        level: "partial",
        message: `style "${String(param.style)}" is not serialized specially; values are sent in form style.`,
      });
    }
    if (location === "query" && param.content === undefined)
      reportQuerySerialization(param, schema, where, converter, report);
    const name = uniqueName(wire, location, taken);
    parameters.push({
      name,
      location: location as ParameterSpec["location"],
      ...(name !== wire ? { wireName: wire } : {}),
      required,
      schema,
      ...(typeof param.description === "string" ? { description: param.description } : {}),
    });
  }

  const body = buildBody(operation, pointer, converter, report, taken);
  parameters.push(...body.parameters);
  return {
    parameters,
    inputSchema: inputSchemaOf(
      parameters,
      body.dependentRequired !== undefined ? { dependentRequired: body.dependentRequired } : {},
    ),
    ...(body.requestBody !== undefined ? { requestBody: body.requestBody } : {}),
  };
}

/** Names the runtime refuses as parameter names (they address prototype machinery as keys). */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(["__proto__", "prototype", "constructor"]);

function uniqueName(wire: string, location: string, taken: Set<string>): string {
  // A reserved wire name is offered under `<location>_<name>` and still sent as itself (wireName).
  let name = taken.has(wire) || RESERVED_NAMES.has(wire) ? `${location}_${wire}` : wire;
  for (let i = 2; taken.has(name); i++) name = `${location}_${wire}_${i}`;
  taken.add(name);
  return name;
}

function buildBody(
  operation: Node,
  pointer: string,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
  taken: Set<string>,
): {
  parameters: ParameterSpec[];
  requestBody?: HttpRequestBody;
  dependentRequired?: Record<string, string[]>;
} {
  let body = operation.requestBody as Node | undefined;
  let where = `${pointer}/requestBody`;
  if (body === undefined || body === null) return { parameters: [] };
  if (typeof body.$ref === "string") {
    where = body.$ref.slice(1);
    body = converter.resolveObject(body.$ref, `${pointer}/requestBody`, "request body");
  }
  const required = body.required === true;
  const content = (body.content ?? {}) as Node;
  const chosen = bodyMediaOf(content);
  if (chosen === undefined) {
    const types = Object.keys(content).join(", ") || "none";
    const issue: CompatibilityIssue = {
      pointer: `${where}/content`,
      construct: "non-json-body",
      level: "unsupported",
      message: `request body media types (${types}) are not JSON or form fields${required ? "; the operation is left out" : "; the body is not offered"}.`,
    };
    if (required) throw new UnsupportedConstruct(issue);
    report(issue);
    return { parameters: [] };
  }
  const { mediaType, form, multipart } = chosen;
  const mediaPointer = `${where}/content/${encodePointerToken(mediaType)}`;
  if (chosen.range)
    report({
      pointer: mediaPointer,
      construct: "media-type-range",
      level: "partial",
      message: `request body media type "${mediaType}" declares a schema; the body is sent as application/json.`,
    });
  const schemaPointer = `${mediaPointer}/schema`;
  const rawSchema = (content[mediaType] as Node | undefined)?.schema ?? {};
  const schema = converter.access.apply(converter.convert(rawSchema, schemaPointer), "request");
  const resolved = resolveLocal(schema, converter);
  const flat =
    resolved !== undefined &&
    resolved.type === "object" &&
    resolved.properties !== null &&
    typeof resolved.properties === "object" &&
    !["allOf", "anyOf", "oneOf", "not", "if", "patternProperties", "dependentSchemas"].some(
      (key) => key in resolved,
    );
  if (!flat && (form || multipart)) {
    // Form fields and parts need named properties: a body that is not a plain object cannot be sent.
    const issue: CompatibilityIssue = {
      pointer: schemaPointer,
      construct: multipart ? "multipart-body" : "form-body",
      level: "unsupported",
      message: `the ${mediaType} body is not a plain object schema (properties), so its fields cannot be named; the operation is left out.`,
    };
    throw new UnsupportedConstruct(issue);
  }
  if (!flat) {
    const name = uniqueName("body", "body", taken);
    return {
      parameters: [{ name, location: "body", required, schema }],
      requestBody: { contentType: "application/json", mode: "value", parameter: name, required },
    };
  }
  const bodyRequired = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
  const propertyEntries = Object.entries(resolved.properties as Record<string, JsonSchema>);
  if (multipart && propertyEntries.length > MAX_MULTIPART_PARTS)
    throw new UnsupportedConstruct({
      pointer: `${schemaPointer}/properties`,
      construct: "multipart-body",
      level: "unsupported",
      message: `the multipart body declares ${propertyEntries.length} parts, more than ${MAX_MULTIPART_PARTS}; the operation is left out.`,
    });
  const plan = multipart
    ? planMultipart(
        propertyEntries.map(([name, propSchema]) => {
          const propResolved = resolveLocal(propSchema, converter);
          const items = propResolved?.items;
          return {
            name,
            schema: propSchema,
            resolved: propResolved,
            resolvedItems:
              items !== null && typeof items === "object" && !Array.isArray(items)
                ? resolveLocal(items as JsonSchema, converter)
                : undefined,
          };
        }),
        content[mediaType],
        mediaPointer,
        report,
      )
    : undefined;
  const parameters: ParameterSpec[] = [];
  const requiredNames: string[] = [];
  for (const [property, declaredSchema] of propertyEntries) {
    const propSchema = plan?.schemas.get(property) ?? declaredSchema;
    const name = uniqueName(property, "body", taken);
    if (bodyRequired.has(property)) requiredNames.push(name);
    parameters.push({
      name,
      location: "body",
      ...(name !== property ? { wireName: property } : {}),
      required: required && bodyRequired.has(property),
      schema: propSchema,
      ...(typeof propSchema === "object" && typeof propSchema.description === "string"
        ? { description: propSchema.description }
        : {}),
    });
  }
  // An optional body is either absent or complete: any body argument requires the body's required ones.
  let dependentRequired: Record<string, string[]> | undefined;
  if (!required && requiredNames.length > 0) {
    dependentRequired = {};
    for (const parameter of parameters) {
      const others = requiredNames.filter((name) => name !== parameter.name);
      if (others.length > 0) dependentRequired[parameter.name] = others;
    }
  }
  return {
    parameters,
    requestBody: multipart
      ? { contentType: "multipart/form-data", mode: "properties", required, parts: plan!.parts }
      : form
        ? {
            contentType: "application/x-www-form-urlencoded",
            mode: "properties",
            required,
            ...deepObjectOf(content[mediaType], resolved.properties as Node),
          }
        : { contentType: "application/json", mode: "properties", required },
    ...(dependentRequired !== undefined ? { dependentRequired } : {}),
  };
}

/** The transport sends arrays as repeated `name=value` pairs and objects as JSON text: say where that differs. */
function reportQuerySerialization(
  param: Node,
  schema: JsonSchema,
  where: string,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
): void {
  const resolved = resolveLocal(schema, converter);
  const types = resolved === undefined ? [] : Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  const style = param.style ?? "form";
  if (types.includes("array") && style === "form" && param.explode === false) {
    report({
      pointer: `${where}/explode`,
      construct: "parameter-style",
      level: "partial",
      message: `explode: false is not serialized specially; the items of "${String(param.name)}" are sent as repeated parameters.`,
    });
  }
  if (types.includes("object") && style === "form") {
    report({
      pointer: `${where}/schema`,
      construct: "parameter-style",
      level: "partial",
      message: `object query parameter "${String(param.name)}" is sent as JSON text, not expanded in form style.`,
    });
  }
}

/**
 * JSON media types (RFC 8259 §11 `application/json`, RFC 6839 §3.1 `+json` suffixes such as
 * `application/vnd.api+json` or `application/problem+json`, and the legacy `text/json`).
 */
export function isJsonMediaType(type: string): boolean {
  const base = mediaBase(type);
  return (
    base === "application/json" ||
    base === "text/json" ||
    /^application\/[a-z0-9.!#$&^_+-]*\+json$/.test(base)
  );
}

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";
const RANGES = new Set(["*/*", "application/*"]);

function mediaBase(type: string): string {
  return type.split(";")[0]!.trim().toLowerCase();
}

/**
 * The media type a body is compiled from: a JSON type first; then a range (`*\/*`, `application/*`)
 * that declares a schema, read as JSON; then form fields.
 */
export function jsonMediaOf(content: Node): { mediaType: string; range: boolean } | undefined {
  const keys = Object.keys(content);
  const json = keys.find(isJsonMediaType);
  if (json !== undefined) return { mediaType: json, range: false };
  const range = keys.find((key) => {
    const media = content[key];
    return (
      RANGES.has(mediaBase(key)) &&
      media !== null &&
      typeof media === "object" &&
      (media as Node).schema !== undefined
    );
  });
  return range === undefined ? undefined : { mediaType: range, range: true };
}

function bodyMediaOf(
  content: Node,
): { mediaType: string; range: boolean; form: boolean; multipart: boolean } | undefined {
  const json = jsonMediaOf(content);
  if (json !== undefined) return { ...json, form: false, multipart: false };
  const form = Object.keys(content).find((key) => mediaBase(key) === FORM);
  if (form !== undefined) return { mediaType: form, range: false, form: true, multipart: false };
  const multipart = Object.keys(content).find((key) => mediaBase(key) === MULTIPART);
  return multipart === undefined
    ? undefined
    : { mediaType: multipart, range: false, form: false, multipart: true };
}

/** The properties an Encoding Object gives `style: deepObject` (sent as `name[0]=…` when arrays). */
function deepObjectOf(media: unknown, properties: Node): { deepObject?: string[] } {
  const encoding = media !== null && typeof media === "object" ? (media as Node).encoding : undefined;
  if (encoding === null || typeof encoding !== "object") return {};
  const names = Object.entries(encoding as Node)
    .filter(
      ([name, entry]) =>
        Object.hasOwn(properties, name) &&
        entry !== null &&
        typeof entry === "object" &&
        (entry as Node).style === "deepObject",
    )
    .map(([name]) => name)
    .sort();
  return names.length > 0 ? { deepObject: names } : {};
}

/** Follows `#/$defs/…` refs of converted schemas through the converter's definitions. */
export function resolveLocal(schema: JsonSchema, converter: SchemaConverter): Node | undefined {
  let current: JsonSchema | undefined = schema;
  for (let hops = 0; hops < 32 && current !== undefined && typeof current === "object"; hops++) {
    const ref: unknown = (current as Node).$ref;
    if (typeof ref !== "string") return current as Node;
    current = converter.defs[decodeDef(ref)];
  }
  return undefined;
}

function decodeDef(ref: string): string {
  return ref
    .replace(/^#\/\$defs\//, "")
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
}
