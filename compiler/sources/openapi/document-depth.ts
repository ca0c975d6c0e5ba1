/**
 * Nesting limit for parsed documents: every later stage (reference resolution, schema conversion,
 * validation, type generation) walks documents recursively, so a document nested deeper than
 * DOCUMENT_DEPTH_LIMIT is refused up front with the limit and the pointer where it is exceeded
 * (docs/sources/openapi.md, "Left out"), never with a stack overflow half-way.
 */
import { encodePointerToken } from "schemarouter/internal";
import { SourceError } from "../../errors/errors.js";

/** Objects and arrays inside one another; real documents stay far below it (GitHub's REST description: < 40). */
export const DOCUMENT_DEPTH_LIMIT = 512;

interface Entry {
  readonly node: object;
  readonly depth: number;
  readonly parent: Entry | undefined;
  readonly key: string;
}

/**
 * Throws SOURCE_INVALID when `value` nests objects/arrays deeper than the limit. Iterative.
 * `tree`: the value is what JSON.parse returned, where no node is shared, so none is remembered.
 */
export function checkDocumentDepth(source: string, value: unknown, what: string, tree = false): void {
  if (value === null || typeof value !== "object") return;
  const seen = tree ? undefined : new Set<object>();
  const stack: Entry[] = [{ node: value, depth: 1, parent: undefined, key: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (seen !== undefined) {
      if (seen.has(entry.node)) continue; // a YAML alias shares a node: walk it once
      seen.add(entry.node);
    }
    if (entry.depth > DOCUMENT_DEPTH_LIMIT) {
      const pointer = pointerOf(entry);
      const shown = pointer.length > 160 ? `${pointer.slice(0, 160)}…` : pointer;
      throw new SourceError(
        source,
        "SOURCE_INVALID",
        `${what} nests deeper than ${DOCUMENT_DEPTH_LIMIT} levels (at ${shown}); flatten that schema, e.g. with named components.`,
        { path: pointer },
      );
    }
    const node = entry.node as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (child !== null && typeof child === "object")
        stack.push({ node: child, depth: entry.depth + 1, parent: entry, key });
    }
  }
}

function pointerOf(entry: Entry): string {
  const tokens: string[] = [];
  for (let at: Entry | undefined = entry; at?.parent !== undefined; at = at.parent)
    tokens.push(encodePointerToken(at.key));
  return tokens
    .reverse()
    .map((token) => `/${token}`)
    .join("");
}
