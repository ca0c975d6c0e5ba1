/**
 * Response examples checked at compile (docs/sources/openapi-overlays.md, "Examples checked at
 * compile"): every `example` and `examples.<name>.value` of a 2xx JSON media type, and the
 * `example` / `examples` of its top schema, is validated against the schema the runtime validates that
 * response with (the converted schema and its `$defs`, with the runtime's ajv settings). Each example
 * that does not satisfy it is a `partial` finding at the example's JSON Pointer: the documented
 * response would be refused at run time, so the schema (or the example) is wrong upstream.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { CompatibilityIssue, JsonSchema } from "schemarouter/internal";
import { createAjv, encodePointerToken, toViolation } from "schemarouter/internal";
import { QuickValidator } from "../quick-validation/quick-validator.js";
import type { SchemaConverter } from "./schema-object.js";
import { UnsupportedConstruct } from "./schema-object.js";

type Node = Record<string, unknown>;

export interface ResponseExample {
  /** JSON Pointer of the example value in the document. */
  readonly pointer: string;
  readonly value: unknown;
  /** The response schema as compiled (it may reference `#/$defs/...`). */
  readonly schema: JsonSchema;
}

/** The examples of one response media type, paired with the response schema compiled for it. */
export function mediaTypeExamples(
  media: Node,
  mediaPointer: string,
  schema: JsonSchema,
  converter: SchemaConverter,
): ResponseExample[] {
  const out: ResponseExample[] = [];
  if (Object.hasOwn(media, "example"))
    out.push({ pointer: `${mediaPointer}/example`, value: media.example, schema });
  const examples = media.examples;
  if (examples !== null && typeof examples === "object" && !Array.isArray(examples)) {
    for (const [name, entry] of Object.entries(examples as Node)) {
      const located = resolved(entry, `${mediaPointer}/examples/${encodePointerToken(name)}`, converter);
      // An Example Object with only `externalValue` names a file or URL that compile does not read.
      if (located !== undefined && Object.hasOwn(located.node, "value"))
        out.push({ pointer: `${located.pointer}/value`, value: located.node.value, schema });
    }
  }
  const top = resolved(media.schema, `${mediaPointer}/schema`, converter);
  if (top !== undefined) {
    if (Object.hasOwn(top.node, "example"))
      out.push({ pointer: `${top.pointer}/example`, value: top.node.example, schema });
    // JSON Schema `examples` (OpenAPI 3.1) is an array of example values.
    if (Array.isArray(top.node.examples))
      top.node.examples.forEach((value, index) => {
        out.push({ pointer: `${top.pointer}/examples/${index}`, value, schema });
      });
  }
  return out;
}

/** An object, or the local object a `$ref` names, with the pointer it is at; undefined otherwise. */
function resolved(
  value: unknown,
  pointer: string,
  converter: SchemaConverter,
): { node: Node; pointer: string } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const node = value as Node;
  if (typeof node.$ref !== "string") return { node, pointer };
  try {
    return { node: converter.resolveObject(node.$ref, pointer, "example"), pointer: node.$ref.slice(1) };
  } catch (error) {
    // A reference that does not resolve is reported where the schema or response uses it.
    if (error instanceof UnsupportedConstruct) return undefined;
    throw error;
  }
}

/** Validates every example against its schema; one finding per example that does not satisfy it. */
export function checkResponseExamples(
  examples: readonly ResponseExample[],
  defs: Readonly<Record<string, JsonSchema>>,
  report: (issue: CompatibilityIssue) => void,
): void {
  if (examples.length === 0) return;
  // One root holding every shared definition once and each response schema beside them: ajv compiles
  // a definition once for all the schemas that reference it, not once per schema.
  let prefix = "schemarouter-response-";
  while (Object.keys(defs).some((name) => name.startsWith(prefix))) prefix = `_${prefix}`;
  const keys = new Map<JsonSchema, string>();
  const $defs: Record<string, unknown> = { ...defs };
  for (const example of examples)
    if (!keys.has(example.schema)) {
      const key = `${prefix}${keys.size}`;
      keys.set(example.schema, key);
      $defs[key] = example.schema;
    }
  // Examples the quick path accepts never reach ajv; ajv compiles only the schemas it is asked about.
  const quick = QuickValidator.over(defs);
  let ajv: Ajv2020 | undefined;
  const reported = new Set<string>();
  for (const example of examples) {
    if (reported.has(example.pointer)) continue;
    if (quick?.accepts(example.schema, example.value) === true) continue;
    const known = quick?.rootTypeMismatch(example.schema, example.value);
    if (known !== undefined) {
      reported.add(example.pointer);
      report(mismatch(example.pointer, known));
      continue;
    }
    if (ajv === undefined) {
      // Not inlining references: a large shared definition is compiled into one function, not into each user.
      ajv = createAjv({ inlineRefs: false });
      ajv.addSchema({ $id: ROOT_ID, $defs });
    }
    let validate: ReturnType<typeof ajv.getSchema>;
    try {
      validate = ajv.getSchema(`${ROOT_ID}#/$defs/${encodePointerToken(keys.get(example.schema)!)}`);
    } catch {
      // A schema the runtime cannot compile (e.g. a pattern RE2 refuses) is reported where it is
      // converted; its examples cannot be checked, and the compile goes on.
      validate = undefined;
    }
    if (validate === undefined) {
      reported.add(example.pointer);
      report({
        pointer: example.pointer,
        construct: "example-unchecked",
        level: "partial",
        message:
          "this response example was not checked: its schema does not compile for validation (see the schema's own findings).",
      });
      continue;
    }
    if (validate(example.value)) continue;
    reported.add(example.pointer);
    report(mismatch(example.pointer, toViolation(validate.errors![0]!).message));
  }
}

/** The finding for an example the response schema refuses (`violation`: the first error, worded). */
function mismatch(pointer: string, violation: string): CompatibilityIssue {
  return {
    pointer,
    construct: "example-mismatch",
    level: "partial",
    message: `this response example does not satisfy the response schema (${violation}); a response like it is refused at run time. If the example is right, fix the schema with an OpenAPI overlay (specOverlays).`,
  };
}

const ROOT_ID = "urn:schemarouter:response-examples";
