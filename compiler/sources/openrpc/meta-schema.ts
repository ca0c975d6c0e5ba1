/**
 * Validation of an OpenRPC document against the OpenRPC meta-schema (`@open-rpc/meta-schema`,
 * docs/sources/openrpc.md "Validation"), compiled once with ajv. The meta-schema refers to its JSON
 * Schema dialect as `https://meta.json-schema.tools`, a draft-07 meta-schema: ajv's own draft-07
 * meta-schema is registered under that id, and the one reference into it that names a property
 * (`JSONSchemaObject/properties/$ref`, a URI reference string) is inlined.
 */
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import type { JsonObject } from "schemarouter/internal";
import { SourceError } from "../../errors/errors.js";

type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

const DIALECT_ID = "https://meta.json-schema.tools";
const REF_PROPERTY = `${DIALECT_ID}/#/definitions/JSONSchemaObject/properties/$ref`;
/** Violations named in the error (the rest are counted). */
const SHOWN_VIOLATIONS = 5;

let validator: Validate | undefined;

/** Replaces the reference to the dialect's `$ref` property schema with that schema. */
function inlineRefProperty(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inlineRefProperty);
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  if (record.$ref === REF_PROPERTY) return { type: "string", format: "uri-reference" };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = inlineRefProperty(value);
  return out;
}

function metaSchemaValidator(): Validate {
  if (validator !== undefined) return validator;
  const require = createRequire(import.meta.url);
  const { Ajv } = require("ajv") as typeof import("ajv");
  const draft07 = require("ajv/dist/refs/json-schema-draft-07.json") as JsonObject;
  const { openrpcDocument } = require("@open-rpc/meta-schema") as { openrpcDocument: JsonObject };
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, logger: false });
  const { $schema: _dialect, $id: _draft07Id, ...dialect } = draft07;
  ajv.addSchema(dialect, DIALECT_ID);
  const { $schema: _openrpcDialect, ...meta } = inlineRefProperty(openrpcDocument) as JsonObject;
  validator = ajv.compile(meta) as Validate;
  return validator;
}

export interface MetaSchemaViolation {
  readonly pointer: string;
  readonly message: string;
}

/** The document's meta-schema violations (empty when it is a valid OpenRPC document). */
export function metaSchemaViolations(document: unknown): MetaSchemaViolation[] {
  const validate = metaSchemaValidator();
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => ({
    pointer: error.instancePath,
    message: `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`,
  }));
}

/** Refuses a document that is not valid against the OpenRPC meta-schema. */
export function checkMetaSchema(source: string, document: unknown, what: string): void {
  const violations = metaSchemaViolations(document);
  if (violations.length === 0) return;
  const shown = violations
    .slice(0, SHOWN_VIOLATIONS)
    .map((violation) => violation.message)
    .join("; ");
  throw new SourceError(
    source,
    "SOURCE_INVALID",
    `${what} is not a valid OpenRPC document (OpenRPC meta-schema): ${shown}${violations.length > SHOWN_VIOLATIONS ? ` (and ${violations.length - SHOWN_VIOLATIONS} more)` : ""}. Fix the document or point the source at another one.`,
    { violations, ...(violations[0] !== undefined ? { pointer: violations[0].pointer } : {}) },
  );
}
