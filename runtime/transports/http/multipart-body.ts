/**
 * `multipart/form-data` request bodies (RFC 7578; OpenAPI 3.1.0 §4.8.15 Encoding Object;
 * docs/sources/openapi-bodies.md): one part per body property, or one part per item of an array
 * property. A `text` part carries the value as text (`null` as empty text), a `json` part as JSON text
 * with `Content-Type: application/json` (or the declared JSON type), a `file` part the bytes of its
 * base64 argument with a filename and the declared Content-Type. Part names and filenames are escaped
 * as the WHATWG HTML form serializer does (`"` → %22, CR → %0D, LF → %0A).
 */
import { randomBytes } from "node:crypto";
import type { HttpBodyPart } from "../../model/specs.js";

export interface MultipartBody {
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** Encodes the body fields (by wire name) as multipart parts; a field without a declared part is sent by its value's type. */
export function encodeMultipartBody(
  fields: Readonly<Record<string, unknown>>,
  parts: readonly HttpBodyPart[],
): MultipartBody {
  const declared = new Map(parts.map((part) => [part.name, part]));
  const boundary = `----schemarouter${randomBytes(16).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const part = declared.get(name);
    const items = Array.isArray(value) && part?.encoding !== "json" ? value : [value];
    for (const item of items) chunks.push(encodePart(boundary, name, item, part));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "latin1"));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

function encodePart(boundary: string, name: string, value: unknown, part: HttpBodyPart | undefined): Buffer {
  const encoding = part?.encoding ?? (value !== null && typeof value === "object" ? "json" : "text");
  let disposition = `form-data; name="${escapeName(name)}"`;
  let contentType: string | undefined;
  let body: Buffer;
  if (encoding === "file") {
    disposition += `; filename="${escapeName(name)}"`;
    contentType = part?.contentType ?? "application/octet-stream";
    body = Buffer.from(String(value), "base64");
  } else if (encoding === "json") {
    contentType = part?.contentType ?? "application/json";
    body = Buffer.from(JSON.stringify(value), "utf8");
  } else {
    contentType = part?.contentType;
    body = Buffer.from(value === null ? "" : String(value), "utf8");
  }
  const head = [`--${boundary}`, `Content-Disposition: ${disposition}`];
  if (contentType !== undefined) head.push(`Content-Type: ${contentType}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "utf8"), body, Buffer.from("\r\n")]);
}

/** An RFC 9110 media type without parameters (`type/subtype`): what a part's Content-Type may be. */
export function isPartMediaType(value: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value);
}

function escapeName(name: string): string {
  return name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
