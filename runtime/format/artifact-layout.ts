/**
 * The line layout of a version-2 artifact file, read at byte level.
 *
 * The file is canonical JSON (RFC 8785) with raw newlines added at fixed places. A JSON string cannot
 * hold a raw newline, so every "\n" in the file is structural, and removing them all gives back the
 * canonical text. The compiler writes:
 *
 *     {"$defs":{                          head
 *     "<def name>":<def>,                 one line per shared definition
 *     "<def name>":<def>
 *     }
 *     ,"compatibility":[                  each top-level member starts a line
 *     <issue>,                            one line per compatibility issue
 *     ]
 *     ,"compilerVersion":"…"
 *     ,"digest":"sha256:…"                the self-digest, alone on its line
 *     ,"endpointIndex":{
 *     "<tool>":[["<endpoint>","<effect>"],…]    one line per tool
 *     }
 *     ,"format":… ,"formatVersion":… ,"remoteDigests":{ one line per tool } ,"source":…
 *     ,"tools":[{…,"endpoints":[
 *     <endpoint>,                         one line per endpoint, in declaration order
 *     <endpoint>
 *     ],"execution":…},{…,"endpoints":[   closes one tool's endpoints, opens the next tool's
 *     …
 *     ]…}]}
 *
 * (an empty list is still split: `[` newline `]`). The reader relies on that layout
 * only after the file's bytes matched the lockfile's digest; anything else is ARTIFACT_INVALID, never
 * a guess. It parses only the skeleton (every line but the definitions and endpoints) and returns the
 * byte spans of the others, so a loader can parse each on first use.
 */
import { createHash } from "node:crypto";
import { LoadError } from "../errors/errors.js";
import { ARTIFACT_FORMAT, ARTIFACT_FORMAT_VERSION, type Artifact, isRecord } from "./artifact.js";
import { checkEmbeddingsSection } from "./artifact-embeddings.js";
import { renderSkeleton } from "./artifact-render.js";

/** A byte range of the file: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface ArtifactLayout {
  readonly bytes: Buffer;
  /** Every member, parsed, except that `$defs` is `{}` and each tool's `endpoints` is `[]`. */
  readonly skeleton: Artifact;
  /** Each shared definition's canonical text, by name, in file order. */
  readonly defs: ReadonlyMap<string, Span>;
  /** Per tool (in `skeleton.tools` order), each endpoint's canonical text, in declaration order. */
  readonly endpoints: readonly (readonly Span[])[];
  /**
   * Per tool: where the line that opens its endpoint lines ends (it ends with `"endpoints":[`) and
   * where the line that closes them starts (it starts with `]`). See toolSkeletonSpans.
   */
  readonly toolLines: readonly ToolLines[];
}

export interface ToolLines {
  readonly openerEnd: number;
  readonly closerStart: number;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const HEAD = '{"$defs":{';
const OPENER = '"endpoints":[';
const DIGEST_LINE = /^,"digest":"sha256:[0-9a-f]{64}"$/;

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Decodes a span of the file (invalid UTF-8 throws). */
export function textOf(bytes: Uint8Array, span: Span): string {
  return decoder.decode(bytes.subarray(span.start, span.end));
}

/** Reads the layout, parses the skeleton and checks the self-digest. Throws LoadError. */
export function readArtifactLayout(bytes: Buffer, where: string): ArtifactLayout {
  const lines = splitLines(bytes);
  let layout: Scanned | string;
  try {
    layout = scan(bytes, lines);
  } catch {
    layout = "it is not valid UTF-8";
  }
  if (typeof layout === "string") throw notTheLayout(bytes, where, layout);
  const texts = layout.skeleton.map((span) => textOf(bytes, span));
  let skeleton: unknown;
  try {
    skeleton = JSON.parse(texts.join(""));
  } catch {
    throw notTheLayout(bytes, where, "its skeleton is not valid JSON");
  }
  const artifact = checkSkeleton(skeleton, layout.endpoints, where);
  // The skeleton lines must be exactly what the compiler renders for their value (canonical JSON,
  // newlines where it puts them): one accepted layout, nothing to guess.
  if (renderSkeleton(artifact as unknown as Record<string, unknown>) !== texts.join("\n")) {
    throw notTheLayout(bytes, where, "its skeleton lines are not the canonical rendering");
  }
  // Every line but the digest line, without the newlines: the canonical text of the other members.
  const self = createHash("sha256");
  for (const line of lines) if (line !== layout.digest) self.update(bytes.subarray(line.start, line.end));
  const actual = `sha256:${self.digest("hex")}`;
  if (actual !== artifact.digest) {
    throw new LoadError(
      "LOCK_MISMATCH",
      `${where} was modified after it was compiled (content digest ${actual} ≠ recorded ${artifact.digest}). ` +
        "Re-run `schemarouter compile`; never edit artifacts by hand.",
      { path: where, source: artifact.source.name, reason: "artifact-self-digest" },
    );
  }
  return {
    bytes,
    skeleton: artifact,
    defs: layout.defs,
    endpoints: layout.endpoints,
    toolLines: layout.toolLines,
  };
}

function splitLines(bytes: Uint8Array): Span[] {
  const lines: Span[] = [];
  let start = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, start)) {
    lines.push({ start, end: at });
    start = at + 1;
  }
  lines.push({ start, end: bytes.length });
  return lines;
}

interface Scanned {
  /** Lines that make up the skeleton, in order (the digest line included). */
  readonly skeleton: Span[];
  readonly digest: Span;
  readonly defs: Map<string, Span>;
  readonly endpoints: Span[][];
  readonly toolLines: ToolLines[];
}

/** The line structure, or a description of how the file departs from it. */
function scan(bytes: Uint8Array, lines: readonly Span[]): Scanned | string {
  const text = (span: Span) => textOf(bytes, span);
  const last = lines[lines.length - 1]!;
  if (lines.length < 4 || last.start !== last.end) return "it does not have the compiler's line layout";
  if (text(lines[0]!) !== HEAD) return "it does not start with the $defs line";
  const skeleton: Span[] = [lines[0]!];
  const defs = new Map<string, Span>();
  let index = 1;
  const group = (first: number): Span[] | string => {
    const out: Span[] = [];
    for (; index < lines.length - 1 && !isCloser(bytes, lines[index]!, first); index++) {
      const line = lines[index]!;
      const next = lines[index + 1]!;
      const comma = line.end > line.start && bytes[line.end - 1] === COMMA;
      if (comma !== !isCloser(bytes, next, first)) return `line ${index + 1} has a misplaced comma`;
      out.push({ start: line.start, end: comma ? line.end - 1 : line.end });
    }
    if (index >= lines.length - 1) return "a definition or endpoint list is not closed";
    return out;
  };
  const defLines = group(0x7d);
  if (typeof defLines === "string") return defLines;
  for (const line of defLines) {
    const member = memberOf(bytes, line);
    if (member === undefined || defs.has(member.name)) return "a $defs line is not a unique member";
    defs.set(member.name, member.value);
  }
  // Every other line is skeleton; one of them is the digest line, and a line ending in
  // `"endpoints":[` opens a tool's endpoint lines (up to the line starting with `]`).
  let digest: Span | undefined;
  const endpoints: Span[][] = [];
  const toolLines: ToolLines[] = [];
  while (index < lines.length - 1) {
    const line = lines[index++]!;
    skeleton.push(line);
    const value = text(line);
    if (DIGEST_LINE.test(value)) {
      if (digest !== undefined || endpoints.length > 0) return "the digest line is misplaced";
      digest = line;
    } else if (value.endsWith(OPENER)) {
      const list = group(0x5d);
      if (typeof list === "string") return list;
      if (list.some((span) => bytes[span.start] !== 0x7b)) return "an endpoint line is not an object";
      endpoints.push(list);
      toolLines.push({ openerEnd: line.end, closerStart: lines[index]!.start });
    }
  }
  if (digest === undefined) return "the digest line is missing";
  return { skeleton, digest, defs, endpoints, toolLines };
}

/** A line closing a list: it starts with `}` ($defs) or `]` (endpoints). */
function isCloser(bytes: Uint8Array, line: Span, closer: number): boolean {
  return line.end > line.start && bytes[line.start] === closer;
}

/** `"name":value` → the decoded name and the value's span; undefined when the line is not that. */
function memberOf(bytes: Uint8Array, line: Span): { name: string; value: Span } | undefined {
  if (bytes[line.start] !== QUOTE) return undefined;
  let at = line.start + 1;
  let escaped = false;
  while (at < line.end && bytes[at] !== QUOTE) {
    if (bytes[at] === BACKSLASH) {
      escaped = true;
      at++;
    }
    at++;
  }
  if (at + 1 >= line.end || bytes[at + 1] !== COLON) return undefined;
  const raw = textOf(bytes, { start: line.start, end: at + 1 });
  let name: string;
  try {
    name = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  } catch {
    return undefined;
  }
  return { name, value: { start: at + 2, end: line.end } };
}

function checkSkeleton(value: unknown, endpoints: readonly Span[][], where: string): Artifact {
  if (!isRecord(value) || value.format !== ARTIFACT_FORMAT) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not a schemarouter artifact; re-run \`schemarouter compile\`.`,
      { path: where },
    );
  }
  if (value.formatVersion !== ARTIFACT_FORMAT_VERSION) throw unsupported(where, value.formatVersion);
  const tools = value.tools;
  const index = value.endpointIndex;
  const ok =
    isRecord(value.source) &&
    typeof value.source.name === "string" &&
    typeof value.source.kind === "string" &&
    typeof value.source.documentDigest === "string" &&
    isRecord(value.$defs) &&
    Object.keys(value.$defs).length === 0 &&
    Array.isArray(tools) &&
    tools.length === endpoints.length &&
    isRecord(index) &&
    Object.keys(index).length === tools.length &&
    tools.every((tool, position) => {
      if (!isRecord(tool) || typeof tool.name !== "string") return false;
      const entries = Object.hasOwn(index, tool.name) ? index[tool.name] : undefined;
      return (
        Array.isArray(tool.endpoints) &&
        tool.endpoints.length === 0 &&
        Array.isArray(entries) &&
        entries.length === endpoints[position]!.length &&
        entries.every(
          (entry) =>
            Array.isArray(entry) &&
            entry.length === 2 &&
            typeof entry[0] === "string" &&
            typeof entry[1] === "string",
        )
      );
    }) &&
    isRecord(value.remoteDigests) &&
    Array.isArray(value.compatibility) &&
    typeof value.compilerVersion === "string" &&
    typeof value.digest === "string";
  if (!ok) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is missing artifact members, or its endpoint lines do not match its tools and endpoint index; re-run \`schemarouter compile\` and never edit or re-format artifacts.`,
      { path: where, reason: "layout" },
    );
  }
  if (value.embeddings !== undefined) checkEmbeddingsSection(value.embeddings, index as never, where);
  return value as unknown as Artifact;
}

function unsupported(where: string, version: unknown): LoadError {
  return new LoadError(
    "ARTIFACT_VERSION_UNSUPPORTED",
    `${where} has artifact format version ${String(version)}, but this schemarouter reads version ${ARTIFACT_FORMAT_VERSION}. ` +
      (typeof version === "number" && version < ARTIFACT_FORMAT_VERSION
        ? "Run `schemarouter migrate` to upgrade it (contracts unchanged), or re-run `schemarouter compile`."
        : "Upgrade schemarouter, or re-run `schemarouter compile` with this version."),
    { path: where, formatVersion: version },
  );
}

/**
 * The error for a file without the compiler's layout. Only on this path is the whole file parsed, to
 * say precisely what it is: not JSON, not an artifact, another format version, or a version-2
 * artifact that was re-formatted (which is refused: the layout is part of the format).
 */
function notTheLayout(bytes: Uint8Array, where: string, why: string): LoadError {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    return new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not valid JSON; re-run \`schemarouter compile\`.`,
      { path: where },
      { cause: error },
    );
  }
  if (!isRecord(value) || value.format !== ARTIFACT_FORMAT) {
    return new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not a schemarouter artifact; re-run \`schemarouter compile\`.`,
      { path: where },
    );
  }
  if (value.formatVersion !== ARTIFACT_FORMAT_VERSION) return unsupported(where, value.formatVersion);
  return new LoadError(
    "ARTIFACT_INVALID",
    `${where} is not laid out as \`schemarouter compile\` writes it (${why}); re-run \`schemarouter compile\` and never re-format artifacts.`,
    { path: where, reason: "layout" },
  );
}
