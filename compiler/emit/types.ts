/**
 * TypeScript types of one source's shared definitions and endpoint inputs/outputs: one declaration
 * per shared definition (sorted by name), then one input and one output type per endpoint.
 * References to shared definitions become references to their declared types, so every definition
 * is typed once however many endpoints use it.
 */
import type { JsonSchema } from "schemarouter/internal";
import { NameAllocator, pascalCase } from "./names.js";
import { declaration, isDescriptiveOnly, type TypeContext } from "./schema-types.js";

export interface EndpointTypeRequest {
  readonly input: JsonSchema;
  readonly output: JsonSchema;
  readonly inputName: string;
  readonly outputName: string;
}

/** `reserved`: other names declared in the same module (never given to a shared definition). */
export function emitTypes(
  defs: Readonly<Record<string, JsonSchema>>,
  endpoints: readonly EndpointTypeRequest[],
  reserved: readonly string[] = [],
): string {
  const allocator = new NameAllocator([
    ...reserved,
    ...endpoints.flatMap((e) => [e.inputName, e.outputName]),
  ]);
  const typeNames = new Map<string, string>();
  for (const name of Object.keys(defs).sort())
    typeNames.set(name, allocator.take(pascalCase(name) || "Schema"));
  const context: TypeContext = { refName: (ref) => typeNames.get(ref) };
  const out: string[] = [];
  for (const [name, typeName] of typeNames) out.push(declaration(typeName, rooted(defs[name]!), context));
  for (const endpoint of endpoints) {
    out.push(declaration(endpoint.inputName, rooted(endpoint.input), context));
    out.push(declaration(endpoint.outputName, rooted(endpoint.output), context));
  }
  return out.join("");
}

/** A root schema that constrains nothing typing can express is `unknown` (but keeps its docs). */
function rooted(schema: JsonSchema): JsonSchema {
  if (typeof schema === "boolean" || !isDescriptiveOnly(schema)) return schema;
  return typeof schema.description === "string" ? { description: schema.description } : {};
}
