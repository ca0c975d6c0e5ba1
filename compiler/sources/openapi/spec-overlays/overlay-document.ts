/**
 * Reads one OpenAPI Overlay 1.0 document (docs/sources/openapi-overlays.md): a local JSON or YAML
 * file, bounded in size and depth, checked against the Overlay Specification 1.0.0 object shapes
 * (Overlay Object, Info Object, Action Object). Every mistake is a SPEC_OVERLAY_INVALID naming the
 * file and the JSON Pointer of the member at fault.
 */
import { resolve } from "node:path";
import { paths as jsonPathMatches } from "jsonpath-rfc9535";
import { isSchemaRouterError, readRegularFile, sha256 } from "schemarouter/internal";
import { SourceError } from "../../../errors/errors.js";
import { parseDocumentText } from "../document.js";

/** The largest overlay file read (an overlay is a patch, not a second API description). */
export const MAX_OVERLAY_BYTES = 8 * 1024 * 1024;

export interface OverlayAction {
  /** Position in `actions` (the pointer `/actions/<index>`). */
  readonly index: number;
  /** RFC 9535 JSONPath query selecting the nodes the action applies to. */
  readonly target: string;
  readonly description?: string;
  readonly update?: unknown;
  readonly remove: boolean;
}

export interface OverlayDocument {
  /** As written in the config (relative to the config file). */
  readonly file: string;
  readonly title: string;
  readonly version: string;
  /** sha256 of the file's bytes as read. */
  readonly digest: string;
  readonly actions: readonly OverlayAction[];
}

type Node = Record<string, unknown>;

const OVERLAY_KEYS = new Set(["overlay", "info", "extends", "actions"]);
const INFO_KEYS = new Set(["title", "version"]);
const ACTION_KEYS = new Set(["target", "description", "update", "remove"]);

export async function readOverlayDocument(
  source: string,
  file: string,
  cwd: string,
): Promise<OverlayDocument> {
  const fail = (message: string, pointer?: string, cause?: unknown) =>
    new SourceError(
      source,
      "SPEC_OVERLAY_INVALID",
      `overlay ${file}${pointer === undefined ? "" : ` at ${pointer === "" ? "the root" : pointer}`}: ${message}`,
      { file, ...(pointer !== undefined ? { pointer } : {}) },
      cause === undefined ? undefined : { cause },
    );
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(resolve(cwd, file));
  } catch (error) {
    const code = isSchemaRouterError(error) ? "not a regular file" : (error as NodeJS.ErrnoException).code;
    throw fail(
      `cannot be read (${code ?? "error"}); the path is relative to the config file.`,
      undefined,
      error,
    );
  }
  if (bytes.length > MAX_OVERLAY_BYTES)
    throw fail(`is ${bytes.length} bytes; an overlay may be at most ${MAX_OVERLAY_BYTES} bytes.`);
  let value: unknown;
  try {
    value = parseDocumentText(source, bytes, `overlay ${file}`);
  } catch (error) {
    throw fail((error as Error).message.replace(/^source "[^"]*": /, ""), undefined, error);
  }
  if (!isObject(value)) throw fail("an overlay document is an object (Overlay Object).", "");
  unknownKeys(value, OVERLAY_KEYS, "", fail);
  if (typeof value.overlay !== "string" || !/^1\.0\.\d+$/.test(value.overlay))
    throw fail(
      `"overlay" is ${JSON.stringify(value.overlay)}; schemarouter applies Overlay Specification 1.0.x documents (e.g. "overlay": "1.0.0").`,
      "/overlay",
    );
  if (!isObject(value.info)) throw fail('"info" with "title" and "version" is required.', "/info");
  unknownKeys(value.info, INFO_KEYS, "/info", fail);
  for (const key of ["title", "version"] as const)
    if (typeof value.info[key] !== "string")
      throw fail(`"info.${key}" is required and is a string.`, `/info/${key}`);
  if (value.extends !== undefined && typeof value.extends !== "string")
    throw fail('"extends" is a URI string.', "/extends");
  if (!Array.isArray(value.actions) || value.actions.length === 0)
    throw fail('"actions" is required: a non-empty array of Action Objects.', "/actions");
  const actions = value.actions.map((entry, index) => readAction(entry, index, fail));
  return {
    file,
    title: value.info.title as string,
    version: value.info.version as string,
    digest: sha256(bytes),
    actions,
  };
}

function readAction(
  entry: unknown,
  index: number,
  fail: (message: string, pointer?: string) => SourceError,
): OverlayAction {
  const at = `/actions/${index}`;
  if (!isObject(entry)) throw fail("an action is an object with a target.", at);
  unknownKeys(entry, ACTION_KEYS, at, fail);
  const target = entry.target;
  if (typeof target !== "string" || target === "")
    throw fail(
      '"target" is required: an RFC 9535 JSONPath query such as "$.paths[\'/pets\'].get".',
      `${at}/target`,
    );
  try {
    jsonPathMatches({}, target);
  } catch (error) {
    throw fail(
      `"target" ${JSON.stringify(target)} is not an RFC 9535 JSONPath query: ${(error as Error).message}`,
      `${at}/target`,
    );
  }
  if (entry.remove !== undefined && typeof entry.remove !== "boolean")
    throw fail('"remove" is a boolean.', `${at}/remove`);
  if (entry.description !== undefined && typeof entry.description !== "string")
    throw fail('"description" is a string.', `${at}/description`);
  const remove = entry.remove === true;
  if (!remove && !Object.hasOwn(entry, "update"))
    throw fail('the action does nothing: give it an "update" or "remove": true.', at);
  return {
    index,
    target,
    ...(typeof entry.description === "string" ? { description: entry.description } : {}),
    ...(Object.hasOwn(entry, "update") ? { update: entry.update } : {}),
    remove,
  };
}

/** Members other than the object's fields and `x-` extensions are refused (a misspelt key does nothing). */
function unknownKeys(
  node: Node,
  known: ReadonlySet<string>,
  at: string,
  fail: (message: string, pointer?: string) => SourceError,
): void {
  for (const key of Object.keys(node))
    if (!known.has(key) && !key.startsWith("x-"))
      throw fail(
        `unknown member "${key}" (allowed: ${[...known].join(", ")}, or an "x-" extension).`,
        `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      );
}

function isObject(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
