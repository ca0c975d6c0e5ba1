/**
 * Success responses that are not JSON (docs/sources/openapi-bodies.md): a `text/*` response whose
 * schema is a string (or absent) is a text output, returned as one string (preferred when a response
 * offers several types); a binary one (octet-stream,
 * images, audio, video, PDF, archives, or a `format: binary` schema) is left out as `binary-response`;
 * anything else is left out as `non-json-response`.
 * Spec: OpenAPI 3.1.0 §4.8.14 (Media Type Object) and "Considerations for File Uploads".
 */
type Node = Record<string, unknown>;

export type NonJsonResponse =
  | { readonly kind: "text"; readonly mediaType: string; readonly schema: Node }
  | { readonly kind: "binary"; readonly mediaType: string }
  | { readonly kind: "other" };

const BINARY_TYPES = new Set([
  "application/octet-stream",
  "application/pdf",
  "application/zip",
  "application/gzip",
  "application/x-tar",
]);
const BINARY_RANGES = ["image/", "audio/", "video/", "font/"];
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** How a response content map without a JSON media type is compiled. */
export function classifyNonJson(content: Node): NonJsonResponse {
  const keys = Object.keys(content);
  for (const key of keys) {
    const type = base(key);
    if (!type.startsWith("text/") || !MEDIA_TYPE.test(type)) continue;
    const schema = schemaOf(content[key]);
    if (schema?.format === "binary") continue;
    if (schema === undefined) return { kind: "text", mediaType: type, schema: { type: "string" } };
    if (schema.type === "string" && schema.$ref === undefined)
      return { kind: "text", mediaType: type, schema };
  }
  const binary = keys.find((key) => isBinary(base(key), content[key]));
  return binary !== undefined ? { kind: "binary", mediaType: binary } : { kind: "other" };
}

function isBinary(type: string, media: unknown): boolean {
  if (BINARY_TYPES.has(type) || BINARY_RANGES.some((prefix) => type.startsWith(prefix))) return true;
  return schemaOf(media)?.format === "binary";
}

function schemaOf(media: unknown): Node | undefined {
  if (media === null || typeof media !== "object") return undefined;
  const schema = (media as Node).schema;
  return schema !== null && typeof schema === "object" && !Array.isArray(schema)
    ? (schema as Node)
    : undefined;
}

function base(type: string): string {
  return type.split(";")[0]!.trim().toLowerCase();
}
