/**
 * An endpoint's fingerprinted contract read off its artifact line, without serializing it again.
 *
 * An endpoint line is the endpoint's canonical JSON; its contract (everything but `metadata`) is
 * that text with the top-level `metadata` member cut out, so the fingerprint can hash the line's own
 * bytes in two pieces. This is sound for any line, canonical or not: the fingerprint equals the
 * locked one only if the hashed bytes are exactly the canonical contract text the lock was computed
 * from (SHA-256), and those bytes are the line minus one top-level member, so the line parses to that
 * contract plus its metadata. A line that is not canonical, has a second `metadata` member, or spells
 * the key with escapes keeps bytes the canonical text does not have, and fails the comparison.
 */

import { decodePointerToken } from "../model/json-pointer.js";
import type { Span } from "./artifact-layout.js";

export interface ContractText {
  /** The contract's text: the line without its top-level `metadata` member, in order. */
  readonly pieces: readonly Uint8Array[];
  /** Names of the `$defs` the contract references directly. */
  readonly refs: Set<string>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const METADATA = new TextEncoder().encode('"metadata"');
const REF_MEMBER = '"$ref":"#/$defs/';
const decoder = new TextDecoder();

/** The contract text of the JSON object at `span` (which must parse as one). */
export function contractTextOf(bytes: Buffer, span: Span): ContractText {
  const cut = metadataMember(bytes, span);
  const pieces =
    cut === undefined
      ? [bytes.subarray(span.start, span.end)]
      : [bytes.subarray(span.start, cut.start), bytes.subarray(cut.end, span.end)];
  const refs = new Set<string>();
  for (const piece of pieces) refsIn(piece as Buffer, refs);
  return { pieces, refs };
}

/**
 * The bytes to remove for the first top-level `"metadata"` member: from the comma before it to the
 * end of its value (or from its key through the comma after it when it is the first member).
 */
function metadataMember(bytes: Buffer, span: Span): Span | undefined {
  let depth = 0;
  let memberStart = -1; // the comma (or the `{`) before the current top-level member
  let cut = -1;
  for (let at = span.start; at < span.end; at++) {
    const char = bytes[at]!;
    if (char === QUOTE) {
      const close = closingQuote(bytes, at, span.end);
      if (depth === 1 && cut < 0 && at === memberStart + 1 && isMetadataKey(bytes, at, close))
        cut = memberStart;
      at = close;
    } else if (char === 0x7b || char === 0x5b) {
      if (depth++ === 0) memberStart = at;
    } else if (char === 0x7d || char === 0x5d) {
      if (--depth === 0 && cut >= 0) return removal(bytes, cut, at);
    } else if (char === COMMA && depth === 1) {
      if (cut >= 0) return removal(bytes, cut, at);
      memberStart = at;
    }
  }
  return undefined;
}

/** [cut, end) when the member follows a comma; [cut + 1, end + 1) (its trailing comma) when first. */
function removal(bytes: Buffer, cut: number, end: number): Span {
  if (bytes[cut] === COMMA) return { start: cut, end };
  return bytes[end] === COMMA ? { start: cut + 1, end: end + 1 } : { start: cut + 1, end };
}

function isMetadataKey(bytes: Buffer, open: number, close: number): boolean {
  if (close - open + 1 !== METADATA.length) return false;
  for (let index = 0; index < METADATA.length; index++)
    if (bytes[open + index] !== METADATA[index]) return false;
  return true;
}

/** Position of the quote closing the string that opens at `open` (skipping escaped quotes). */
function closingQuote(bytes: Buffer, open: number, end: number): number {
  let at = bytes.indexOf(QUOTE, open + 1);
  while (at >= 0 && at < end) {
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return end;
}

/**
 * `directDefRefsInText` over bytes: inside a JSON string every `"` is escaped, so the sequence
 * `"$ref":"#/$defs/` occurs exactly where a member named `$ref` has a string value with that prefix.
 */
function refsIn(piece: Buffer, into: Set<string>): void {
  for (let at = piece.indexOf(REF_MEMBER); at >= 0; at = piece.indexOf(REF_MEMBER, at + 1)) {
    const start = at + REF_MEMBER.length;
    const end = closingQuote(piece, start - 1, piece.length);
    const raw = decoder.decode(piece.subarray(start, end));
    const token = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
    into.add(decodePointerToken(token));
  }
}
