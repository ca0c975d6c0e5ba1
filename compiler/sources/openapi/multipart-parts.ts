/**
 * `multipart/form-data` request bodies → one part per body property (docs/sources/openapi-bodies.md).
 * Spec: OpenAPI 3.1.0 §4.8.14 (Media Type Object), §4.8.15 (Encoding Object: `contentType`) and
 * "Considerations for File Uploads"; OpenAPI 3.0.3 §4.7.14 (`format: binary`).
 *
 * A property is a file part when its schema is a binary string (`format: binary`, or a
 * `contentMediaType` without `contentEncoding`) or its Encoding Object declares a non-text, non-JSON
 * `contentType`. A file argument is base64 text (validated by pattern) and is sent as the decoded
 * bytes with a filename. Objects and arrays of objects are JSON parts; everything else is text.
 */
import type { CompatibilityIssue, HttpBodyPart, JsonSchema } from "schemarouter/internal";
import { encodePointerToken } from "schemarouter/internal";

type Node = Record<string, unknown>;

/** Most parts one multipart body may declare; a document declaring more leaves its operation out. */
export const MAX_MULTIPART_PARTS = 256;

/** Standard base64 (RFC 4648 §4) with padding: what a file part's argument must be. */
export const BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface MultipartProperty {
  /** The property's wire name. */
  readonly name: string;
  /** The property's (converted) schema. */
  readonly schema: JsonSchema;
  /** The schema with local `$ref`s followed (undefined: not resolvable). */
  readonly resolved: Node | undefined;
  /** The items schema with local `$ref`s followed, for arrays. */
  readonly resolvedItems: Node | undefined;
}

export interface MultipartPlan {
  readonly parts: HttpBodyPart[];
  /** Parameter schemas that differ from the property schema (file parts: base64 strings). */
  readonly schemas: ReadonlyMap<string, JsonSchema>;
}

/** The part of each property, and the base64 parameter schema of each file part. */
export function planMultipart(
  properties: readonly MultipartProperty[],
  media: unknown,
  mediaPointer: string,
  report: (issue: CompatibilityIssue) => void,
): MultipartPlan {
  const encodings = encodingsOf(media);
  const parts: HttpBodyPart[] = [];
  const schemas = new Map<string, JsonSchema>();
  for (const property of properties) {
    const encoding = Object.hasOwn(encodings, property.name) ? (encodings[property.name] as Node) : undefined;
    const where = `${mediaPointer}/encoding/${encodePointerToken(property.name)}`;
    if (encoding !== undefined && encoding.headers !== undefined)
      report({
        pointer: `${where}/headers`,
        construct: "multipart-encoding",
        level: "partial",
        message: `part "${property.name}" declares headers; they are not sent (only Content-Disposition and Content-Type are).`,
      });
    const declared = declaredType(encoding, where, property.name, report);
    const isArray = typeOf(property.resolved) === "array";
    const element = isArray ? property.resolvedItems : property.resolved;
    const kind = partKind(element, declared);
    if (kind === "file") {
      const fileSchema: JsonSchema = {
        type: "string",
        contentEncoding: "base64",
        pattern: BASE64_PATTERN,
        description: fileDescription(property.resolved),
      };
      schemas.set(property.name, isArray ? { type: "array", items: fileSchema } : fileSchema);
    }
    const contentType =
      kind === "file"
        ? (declared ?? "application/octet-stream")
        : kind === "json"
          ? declared
          : declared !== undefined && declared.toLowerCase() !== "text/plain"
            ? declared
            : undefined;
    parts.push({
      name: property.name,
      encoding: kind,
      ...(contentType !== undefined ? { contentType } : {}),
    });
  }
  return { parts, schemas };
}

function partKind(schema: Node | undefined, declared: string | undefined): HttpBodyPart["encoding"] {
  if (declared !== undefined) {
    const base = declared.toLowerCase();
    if (base === "application/json" || base.endsWith("+json")) return "json";
    if (!base.startsWith("text/")) return "file";
  }
  if (schema === undefined) return "text";
  const type = typeOf(schema);
  if (type === "string" && (schema.format === "binary" || isRawContent(schema))) return "file";
  if (type === "object" || type === "array" || schema.properties !== undefined) return "json";
  return "text";
}

/** OAS 3.1 files: `contentMediaType` without `contentEncoding` (raw bytes). */
function isRawContent(schema: Node): boolean {
  return typeof schema.contentMediaType === "string" && schema.contentEncoding === undefined;
}

function typeOf(schema: Node | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((entry) => entry !== "null") as string | undefined;
  return undefined;
}

/** The first concrete media type an Encoding Object's `contentType` lists (a list or a range is reported). */
function declaredType(
  encoding: Node | undefined,
  where: string,
  name: string,
  report: (issue: CompatibilityIssue) => void,
): string | undefined {
  const value = encoding?.contentType;
  if (typeof value !== "string") return undefined;
  const listed = value.split(",").map((entry) => entry.split(";")[0]!.trim());
  const concrete = listed.find((entry) => MEDIA_TYPE.test(entry) && !entry.includes("*"));
  if (concrete === undefined || listed.length > 1)
    report({
      pointer: `${where}/contentType`,
      construct: "multipart-encoding",
      level: "partial",
      message:
        concrete === undefined
          ? `part "${name}" declares contentType ${JSON.stringify(value.slice(0, 80))}, which is not one media type; the part is sent with its default type.`
          : `part "${name}" lists several content types; it is sent as ${concrete}.`,
    });
  return concrete;
}

function encodingsOf(media: unknown): Node {
  const encoding = media !== null && typeof media === "object" ? (media as Node).encoding : undefined;
  return encoding !== null && typeof encoding === "object" && !Array.isArray(encoding)
    ? (encoding as Node)
    : {};
}

function fileDescription(schema: Node | undefined): string {
  const own = typeof schema?.description === "string" ? `${schema.description} ` : "";
  return `${own}(File content, base64-encoded; sent as a file part.)`;
}
