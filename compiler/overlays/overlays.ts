/**
 * Trusted overlays from local config (result contracts, docs/runtime/field-projection.md): declared
 * output fields with explicit paths, semantic IDs, units and normalization, qualifiers, identifier
 * flags, provenance, license, and server projection. Overlays are validated against the output schema
 * and can never change execution identity or validation shape (parameters, schemas, execution
 * metadata).
 */

import type {
  EndpointSpec,
  FieldSpec,
  JsonSchema,
  ServerProjectionSpec,
  ToolSpec,
} from "schemarouter/internal";
import { overlaps, resolveRef, WILDCARD } from "schemarouter/internal";
import type { EndpointOverlay, FieldOverlay, Overlays } from "../config/config.js";
import { CompileError, type CompilerErrorDetailsOf } from "../errors/errors.js";

type OverlayDetails = Pick<CompilerErrorDetailsOf<"OVERLAY_INVALID">, "field">;

type Node = Record<string, unknown>;

const RESERVED_KEYS = new Set(["__proto__", "prototype", "constructor"]);

export function applyOverlays(
  source: string,
  tools: readonly ToolSpec[],
  defs: Readonly<Record<string, JsonSchema>>,
  overlays: Overlays | undefined,
): ToolSpec[] {
  const wanted = overlays?.endpoints ?? {};
  const found = new Set<string>();
  const out = tools.map((tool) => ({
    ...tool,
    endpoints: tool.endpoints.map((endpoint) => {
      const overlay = wanted[endpoint.name];
      if (overlay === undefined) return endpoint;
      found.add(endpoint.name);
      return applyEndpointOverlay(`${source}.${endpoint.name}`, endpoint, overlay, defs);
    }),
  }));
  for (const name of Object.keys(wanted)) {
    if (!found.has(name)) {
      throw new CompileError(
        "OVERLAY_INVALID",
        `overlays.endpoints.${name}: source "${source}" has no endpoint "${name}". Check the name in the lockfile or \`schemarouter inspect\`.`,
        { source, endpoint: name },
      );
    }
  }
  return out;
}

function applyEndpointOverlay(
  route: string,
  endpoint: EndpointSpec,
  overlay: EndpointOverlay,
  defs: Readonly<Record<string, JsonSchema>>,
): EndpointSpec {
  const fail = (message: string, extra: OverlayDetails = {}) =>
    new CompileError("OVERLAY_INVALID", `${route}: ${message}`, { route, ...extra });
  const declared = overlay.replaceFields === true ? [] : [...endpoint.fields];
  for (const entry of overlay.fields ?? []) {
    const field = toField(entry, endpoint.outputSchema, defs, fail);
    // An overlay field replaces the derived field of the same ID or of the same path.
    const index = declared.findIndex(
      (existing) =>
        existing.id === field.id || (existing.overlay !== true && samePath(existing.path, field.path)),
    );
    if (index >= 0) declared[index] = field;
    else declared.push(field);
  }
  const ids = new Set<string>();
  for (const field of declared) {
    if (ids.has(field.id)) throw fail(`field "${field.id}" is declared twice.`);
    ids.add(field.id);
  }
  for (let i = 0; i < declared.length; i++) {
    for (let j = i + 1; j < declared.length; j++) {
      const a = declared[i]!;
      const b = declared[j]!;
      if (samePath(a.path, b.path)) throw fail(`fields "${a.id}" and "${b.id}" have the same path.`);
    }
  }
  let serverProjection: ServerProjectionSpec | undefined;
  if (overlay.serverProjection !== undefined) {
    const spec = overlay.serverProjection;
    const parameter = endpoint.parameters.find((p) => p.name === spec.parameter);
    if (parameter === undefined || (parameter.location !== "query" && parameter.location !== "argument")) {
      throw fail(`serverProjection.parameter "${spec.parameter}" is not a declared query parameter.`);
    }
    for (const id of Object.keys(spec.selectors))
      if (!ids.has(id)) throw fail(`serverProjection selector "${id}" is not a declared field.`);
    serverProjection = {
      parameter: spec.parameter,
      selectors: sortRecord(spec.selectors),
      always: [...(spec.always ?? [])],
      separator: spec.separator ?? ",",
    };
  }
  const parameters = annotateParameters(endpoint, overlay, fail);
  const preconditions = [...new Set(overlay.preconditions ?? [])].sort();
  return {
    ...endpoint,
    parameters,
    fields: declared,
    ...(serverProjection !== undefined ? { serverProjection } : {}),
    ...(preconditions.length > 0 ? { preconditions } : {}),
  };
}

/**
 * Parameter meanings for the capability graph (docs/runtime/capability-graph.md): a semantic ID and
 * accepted IDs per declared parameter. They annotate; they never change a parameter's name, location,
 * schema or requiredness.
 */
function annotateParameters(
  endpoint: EndpointSpec,
  overlay: EndpointOverlay,
  fail: (message: string) => CompileError,
): EndpointSpec["parameters"] {
  const wanted = overlay.parameters ?? {};
  for (const name of Object.keys(wanted)) {
    if (!endpoint.parameters.some((parameter) => parameter.name === name))
      throw fail(
        `parameters.${name}: the endpoint has no parameter "${name}" (parameters: ${endpoint.parameters.map((p) => p.name).join(", ") || "none"}).`,
      );
  }
  return endpoint.parameters.map((parameter) => {
    const meaning = wanted[parameter.name];
    if (meaning === undefined) return parameter;
    const accepts = [...new Set(meaning.accepts ?? [])].filter((id) => id !== meaning.semanticId).sort();
    return {
      ...parameter,
      semanticId: meaning.semanticId,
      ...(accepts.length > 0 ? { accepts } : {}),
    };
  });
}

function toField(
  entry: FieldOverlay,
  output: JsonSchema,
  defs: Readonly<Record<string, JsonSchema>>,
  fail: (message: string, extra?: OverlayDetails) => CompileError,
): FieldSpec {
  const resultPath = entry.resultPath ?? entry.path;
  const wildcards = (path: readonly string[]) =>
    path.map((segment, index) => (segment === WILDCARD ? index : -1)).filter((i) => i >= 0);
  if (entry.path.at(-1) === WILDCARD || resultPath.at(-1) === WILDCARD)
    throw fail(
      `field "${entry.id}": a path cannot end with "*"; name the array itself (a unit applies to arrays of numbers) or a property of its items.`,
      { field: entry.id },
    );
  if (entry.path.includes(WILDCARD) && entry.resultPath === undefined)
    throw fail(`field "${entry.id}": a path with "*" needs an explicit resultPath.`);
  if (wildcards(entry.path).join(",") !== wildcards(resultPath).join(","))
    throw fail(
      `field "${entry.id}": path and resultPath must have their "*" segments at the same positions.`,
    );
  if ([...entry.path, ...resultPath].some((segment) => RESERVED_KEYS.has(segment)))
    throw fail(`field "${entry.id}": __proto__, prototype and constructor cannot be path segments.`);
  const schema = schemaAt(output, entry.path, defs);
  if (schema === undefined)
    throw fail(
      `field "${entry.id}": path ${JSON.stringify(entry.path)} is not declared in the output schema ("*" only walks declared arrays).`,
      { field: entry.id },
    );
  if (entry.unit !== undefined || entry.normalization !== undefined) {
    if (!isNumeric(schema, defs))
      throw fail(`field "${entry.id}": a unit needs a numeric field (number, integer, or arrays of them).`, {
        field: entry.id,
      });
  }
  if (entry.normalization !== undefined && entry.unit === undefined)
    throw fail(`field "${entry.id}": normalization needs the field's unit.`);
  if (
    entry.normalization !== undefined &&
    (!Number.isFinite(entry.normalization.scale) || entry.normalization.scale === 0)
  )
    throw fail(`field "${entry.id}": normalization.scale must be a finite non-zero number.`);
  const node = typeof schema === "object" ? (schema as Node) : {};
  return {
    id: entry.id,
    path: [...entry.path],
    ...(entry.resultPath !== undefined || entry.path.includes(WILDCARD)
      ? { resultPath: [...resultPath] }
      : {}),
    schema,
    ...(typeof node.type === "string" ? { datatype: node.type } : {}),
    ...(entry.description !== undefined
      ? { description: entry.description }
      : typeof node.description === "string"
        ? { description: node.description }
        : {}),
    ...(entry.aliases !== undefined ? { aliases: [...entry.aliases] } : {}),
    ...(entry.semanticId !== undefined ? { semanticId: entry.semanticId } : {}),
    ...(entry.unit !== undefined ? { unit: entry.unit } : {}),
    ...(entry.dimensions !== undefined ? { dimensions: entry.dimensions } : {}),
    ...(entry.normalization !== undefined
      ? {
          normalization: {
            canonicalUnit: entry.normalization.canonicalUnit,
            scale: entry.normalization.scale,
            offset: entry.normalization.offset ?? 0,
          },
        }
      : {}),
    ...(entry.qualifiers !== undefined ? { qualifiers: sortRecord(entry.qualifiers) } : {}),
    ...(entry.identifier !== undefined ? { identifier: entry.identifier } : {}),
    ...(entry.provenance !== undefined ? { provenance: entry.provenance } : {}),
    ...(entry.license !== undefined ? { license: entry.license } : {}),
    overlay: true,
  };
}

/** The schema at a field path in the output schema (through `$defs`, `allOf` and nullable unions). */
export function schemaAt(
  schema: JsonSchema,
  path: readonly string[],
  defs: Readonly<Record<string, JsonSchema>>,
): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const segment of path) {
    if (current === undefined) return undefined;
    const candidates = branches(current, defs);
    let next: JsonSchema | undefined;
    for (const node of candidates) {
      if (segment === WILDCARD) {
        if (
          (node.type === "array" || (Array.isArray(node.type) && node.type.includes("array"))) &&
          node.items !== undefined
        )
          next = node.items as JsonSchema;
      } else {
        const props = node.properties as Record<string, JsonSchema> | undefined;
        if (props !== undefined && Object.hasOwn(props, segment)) next = props[segment];
      }
      if (next !== undefined) break;
    }
    current = next;
  }
  return current;
}

function branches(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): Node[] {
  const root = resolveRef(schema, defs);
  if (root === undefined) return [];
  const out: Node[] = [root];
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = root[key];
    if (Array.isArray(list)) for (const branch of list) out.push(...branches(branch as JsonSchema, defs));
  }
  return out;
}

function isNumeric(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): boolean {
  const nodes = branches(schema, defs);
  if (nodes.length === 0) return false;
  return nodes.some((node) => {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes("number") || types.includes("integer")) return true;
    if (types.includes("array") && node.items !== undefined) return isNumeric(node.items as JsonSchema, defs);
    return false;
  });
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && overlaps(a, b);
}

function sortRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
