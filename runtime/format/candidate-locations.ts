/**
 * Where each candidate's bytes are in its artifact (docs/runtime/loading-and-verification.md,
 * "Candidates"): the retrieval index records, for every endpoint, the span of its canonical text and
 * that text's SHA-256; for every tool, the spans of its skeleton text (the tool with `"endpoints":[]`,
 * split around its endpoint lines) and their SHA-256; for every source, its shared definitions (name
 * and value span, in file order). The compiler computes them from the artifact's verified layout, so a
 * runtime can read and verify one candidate without reading the rest of the file.
 */
import { createHash } from "node:crypto";
import type { ArtifactLayout, Span } from "./artifact-layout.js";
import { renderTool } from "./artifact-render.js";
import { canonicalJson } from "./fingerprint.js";
import { DIGEST_BYTES, type RetrievalIndexLocations } from "./retrieval-index.js";

const MAX_OFFSET = 0xffffffff;

function digestInto(out: Uint8Array, at: number, pieces: readonly Uint8Array[]): void {
  const hash = createHash("sha256");
  for (const piece of pieces) hash.update(piece);
  out.set(hash.digest(), at * DIGEST_BYTES);
}

/** The skeleton text of tool `position`: before its endpoint lines, and after them. */
export function toolSkeletonSpans(layout: ArtifactLayout, position: number): { head: Span; tail: Span } {
  const tool = layout.skeleton.tools[position]! as unknown as Record<string, unknown>;
  const texts = new Map<string, string>();
  for (const name of Object.keys(tool)) if (name !== "endpoints") texts.set(name, canonicalJson(tool[name]));
  // renderTool with no endpoints is `{…"endpoints":[` newline `]…}`: the only newline in it.
  const rendered = renderTool(texts, []);
  const cut = rendered.indexOf("\n");
  const head = Buffer.from(rendered.slice(0, cut), "utf8");
  const tail = Buffer.from(rendered.slice(cut + 1), "utf8");
  const lines = layout.toolLines[position]!;
  const spans = {
    head: { start: lines.openerEnd - head.length, end: lines.openerEnd },
    tail: { start: lines.closerStart, end: lines.closerStart + tail.length },
  };
  const bytes = layout.bytes;
  if (
    !bytes.subarray(spans.head.start, spans.head.end).equals(head) ||
    !bytes.subarray(spans.tail.start, spans.tail.end).equals(tail)
  ) {
    throw new TypeError(`tool ${position} of the artifact is not where its rendering puts it`);
  }
  return spans;
}

/** The candidate locations of one source's artifact (joined with the others' by joinLocations). */
export interface SourceLocations {
  readonly endpointSpans: Uint32Array;
  readonly endpointDigests: Uint8Array;
  readonly toolSpans: Uint32Array;
  readonly toolDigests: Uint8Array;
  readonly defSpans: Uint32Array;
  readonly defNames: readonly Buffer[];
}

/** Locates every tool, endpoint and shared definition of one artifact (its verified layout). */
export function locateSource(layout: ArtifactLayout): SourceLocations {
  const bytes = layout.bytes;
  if (bytes.length > MAX_OFFSET) throw new RangeError("an artifact over 4 GiB cannot be indexed");
  const tools = layout.skeleton.tools.length;
  const endpoints = layout.endpoints.reduce((n, list) => n + list.length, 0);
  const endpointSpans = new Uint32Array(2 * endpoints);
  const endpointDigests = new Uint8Array(DIGEST_BYTES * endpoints);
  const toolSpans = new Uint32Array(4 * tools);
  const toolDigests = new Uint8Array(DIGEST_BYTES * tools);
  let e = 0;
  for (let t = 0; t < tools; t++) {
    const { head, tail } = toolSkeletonSpans(layout, t);
    toolSpans.set([head.start, head.end, tail.start, tail.end], 4 * t);
    digestInto(toolDigests, t, [bytes.subarray(head.start, head.end), bytes.subarray(tail.start, tail.end)]);
    for (const span of layout.endpoints[t]!) {
      endpointSpans[2 * e] = span.start;
      endpointSpans[2 * e + 1] = span.end;
      digestInto(endpointDigests, e++, [bytes.subarray(span.start, span.end)]);
    }
  }
  const defSpans = new Uint32Array(2 * layout.defs.size);
  const defNames: Buffer[] = [];
  let d = 0;
  for (const [name, span] of layout.defs) {
    defSpans[d++] = span.start;
    defSpans[d++] = span.end;
    defNames.push(Buffer.from(name, "utf8"));
  }
  return { endpointSpans, endpointDigests, toolSpans, toolDigests, defSpans, defNames };
}

function concatenated<T extends Uint8Array | Uint32Array>(
  make: new (length: number) => T,
  parts: readonly T[],
): T {
  const out = new make(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part as never, at);
    at += part.length;
  }
  return out;
}

/** The index's locations section from each source's locations (in index source order). */
export function joinLocations(sources: readonly SourceLocations[]): RetrievalIndexLocations {
  const defStart = new Uint32Array(sources.length + 1);
  const names = sources.flatMap((source) => source.defNames);
  const defNameStart = new Uint32Array(names.length + 1);
  let d = 0;
  sources.forEach((source, s) => {
    defStart[s] = d;
    d += source.defNames.length;
  });
  defStart[sources.length] = d;
  names.forEach((name, at) => {
    defNameStart[at + 1] = defNameStart[at]! + name.length;
  });
  return {
    endpointSpans: concatenated(
      Uint32Array,
      sources.map((s) => s.endpointSpans),
    ),
    endpointDigests: concatenated(
      Uint8Array,
      sources.map((s) => s.endpointDigests),
    ),
    toolSpans: concatenated(
      Uint32Array,
      sources.map((s) => s.toolSpans),
    ),
    toolDigests: concatenated(
      Uint8Array,
      sources.map((s) => s.toolDigests),
    ),
    defStart,
    defSpans: concatenated(
      Uint32Array,
      sources.map((s) => s.defSpans),
    ),
    defNameStart,
    defNames: new Uint8Array(Buffer.concat(names)),
  };
}
