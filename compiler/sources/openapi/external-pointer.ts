/**
 * JSON pointers in the fragments of external `$ref`s (RFC 6901 §5–6, as URI fragments).
 */
import { decodePointerToken, encodePointerToken } from "schemarouter/internal";

type Node = Record<string, unknown>;

/** The tokens of a fragment that is empty (the whole document) or starts with "/". */
export function fragmentTokens(fragment: string): string[] {
  return fragment === "" ? [] : fragment.slice(1).split("/").map(decodeFragmentToken);
}

/** RFC 6901 pointer text of `tokens`. */
export function pointerOf(tokens: readonly string[]): string {
  return tokens.map((token) => `/${encodePointerToken(token)}`).join("");
}

/** The value at the JSON pointer `tokens` inside `value`; undefined when there is none. */
export function evaluatePointer(value: unknown, tokens: readonly string[]): unknown {
  let node = value;
  for (const token of tokens) {
    if (node === null || typeof node !== "object") return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else {
      if (!Object.hasOwn(node, token)) return undefined;
      node = (node as Node)[token];
    }
  }
  return node;
}

/** A URI-fragment pointer token: percent-decoded (RFC 6901 §6), then unescaped. */
function decodeFragmentToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not percent-encoded text: taken as written.
  }
  return decodePointerToken(decoded);
}
