/**
 * The lockfile's text assembled per source (docs/sources/openapi.md, "Incremental compile"): exactly
 * `serializeLockfile`'s bytes (sorted keys, two-space indent, trailing newline), but a source whose
 * entry is the previous lockfile's own entry object (a reused source) takes its text from the
 * previous lockfile as it is, when that file is one this compiler wrote (the compile cache recorded
 * its digest) — so its layout is the canonical one and every entry's text is where the layout puts it.
 * Every other entry is serialised.
 */
import { type LockedSource, type Lockfile, serializeLockfile, sha256 } from "schemarouter/internal";
import type { CompileCache } from "./compile-cache.js";

/** The previous lockfile as read: its text and what it parsed to. */
export interface PreviousLockFile {
  readonly lock: Lockfile;
  readonly text: string;
}

/** The compile cache's record of a lockfile text this compiler wrote, by its digest. */
const WRITTEN_LOCK = "lockfile";
/** Depth of a source entry in the lockfile (root → "sources" → entry): its lines' indentation. */
const ENTRY_INDENT = "    ";

/** `serializeLockfile(lock)`, with reused entries' text taken from `previous` when it can be trusted. */
export function lockText(
  lock: Lockfile,
  previous: PreviousLockFile | undefined,
  cache?: CompileCache,
): string {
  const names = Object.keys(lock.sources).sort();
  if (names.length === 0) return remember(serializeLockfile(lock), cache);
  const spans =
    previous !== undefined && cache?.derivedOf(WRITTEN_LOCK, lockTextDigest(previous.text)) === true
      ? entrySpans(previous.text)
      : undefined;
  const head = serializeLockfile({ ...lock, sources: {} });
  const empty = '  "sources": {}\n}\n';
  if (!head.endsWith(empty)) throw new TypeError("lockfile keys no longer end with sources");
  const parts = [head.slice(0, head.length - empty.length), '  "sources": {\n'];
  names.forEach((name, at) => {
    const entry = lock.sources[name]!;
    const span = spans !== undefined && previous!.lock.sources[name] === entry ? spans.get(name) : undefined;
    parts.push(ENTRY_INDENT, JSON.stringify(name), ": ");
    parts.push(span !== undefined ? previous!.text.slice(span[0], span[1]) : entryText(entry));
    parts.push(at + 1 < names.length ? ",\n" : "\n");
  });
  parts.push("  }\n}\n");
  return remember(parts.join(""), cache);
}

/** Records that this compiler wrote `text` (its digest), so the next compile may reuse its entries. */
function remember(text: string, cache: CompileCache | undefined): string {
  cache?.setDerived(WRITTEN_LOCK, lockTextDigest(text), true);
  return text;
}

let lastDigested: { readonly text: string; readonly digest: string } | undefined;

/**
 * The SHA-256 of a lockfile text; the last one is remembered, so the compile hashes the previous and
 * the new lockfile (tens of MB in a large project) once each however many of its steps ask.
 */
export function lockTextDigest(text: string): string {
  if (lastDigested?.text !== text) lastDigested = { text, digest: sha256(text) };
  return lastDigested.digest;
}

/** One source entry as `serializeLockfile` writes it at its depth. */
function entryText(entry: LockedSource): string {
  return serializeLockfile(entry as unknown as Lockfile)
    .slice(0, -1)
    .replaceAll("\n", `\n${ENTRY_INDENT}`);
}

/**
 * Where each source entry's value (`{` … `}`) is in a lockfile text in the canonical layout: an
 * entry starts on a line indented by four spaces inside "sources" and ends on the next line that is
 * four spaces and `}` (deeper lines are indented further).
 */
function entrySpans(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  const open = '\n  "sources": {\n';
  let at = text.indexOf(open);
  if (at < 0) return spans;
  at += open.length;
  while (text.startsWith(ENTRY_INDENT, at) && text[at + ENTRY_INDENT.length] === '"') {
    const colon = text.indexOf('": {\n', at);
    if (colon < 0) break;
    const name = JSON.parse(text.slice(at + ENTRY_INDENT.length, colon + 1)) as string;
    const close = text.indexOf(`\n${ENTRY_INDENT}}`, colon);
    if (close < 0) break;
    const end = close + 1 + ENTRY_INDENT.length + 1;
    spans.set(name, [colon + 3, end]);
    if (text[end] !== ",") break;
    at = end + 2;
  }
  return spans;
}
