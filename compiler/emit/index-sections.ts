/**
 * The per-source parts of the retrieval index (docs/runtime/retrieval-and-planning.md, "Stored
 * index"): a source's header entry, its tools with their endpoint names, its endpoints' effects and
 * its candidate locations (docs/runtime/loading-and-verification.md, "Candidates") and its endpoints'
 * component lengths (docs/reference/formats.md, `componentLengths`). Each comes from
 * the source's surface segment, or, for a source whose artifact did not change, is cut out of the
 * previous index as it is; the index's own sections are their concatenation in source order.
 */
import {
  componentLengthsOfRows,
  joinLocations,
  LENGTH_BITS,
  type RetrievalIndexData,
  type RetrievalIndexSource,
  type SourceLocations,
} from "schemarouter/internal";
import type { MergedPostings } from "./index-merge.js";
import type { SurfaceSegment } from "./surface-segments.js";

export interface SourceSection {
  readonly source: RetrievalIndexSource;
  readonly tools: readonly { readonly name: string; readonly endpoints: readonly string[] }[];
  /** Each endpoint's side-effect class, in endpoint order. */
  readonly effects: readonly string[];
  /** Each endpoint's distinct tokens per component of LENGTH_BITS (one row of that width per endpoint). */
  readonly lengths: Uint32Array;
  readonly locations: SourceLocations;
}

/** A source's section of a previous index, with the range of endpoints it holds there. */
export interface IndexedSection extends SourceSection {
  /** Position of the source in the previous index. */
  readonly at: number;
  readonly first: number;
  readonly end: number;
}

export function sectionOfSegment(source: RetrievalIndexSource, segment: SurfaceSegment): SourceSection {
  return {
    source,
    tools: segment.tools,
    effects: segment.effects,
    // Counted from the rows the source's postings come from (runtime/retrieval/length-norm.ts).
    lengths: componentLengthsOfRows(segment.masks, segment.starts, LENGTH_BITS),
    locations: segment.locations,
  };
}

/**
 * Every source's section of a decoded index (its arrays are views on the index's). Throws for an index
 * whose lengths are of other components than LENGTH_BITS (they cannot be cut into this compiler's).
 */
export function sectionsOfIndex(data: RetrievalIndexData): IndexedSection[] {
  const { locations } = data;
  const width = LENGTH_BITS.length;
  if (data.lengthBits.length !== width || data.lengthBits.some((bit, c) => bit !== LENGTH_BITS[c])) {
    throw new TypeError(`index lengths are of components ${data.lengthBits}, not ${LENGTH_BITS}`);
  }
  const sections: IndexedSection[] = [];
  let tool = 0;
  let endpoint = 0;
  data.sources.forEach((source, at) => {
    const firstTool = tool;
    const first = endpoint;
    while (tool < data.tools.length && data.tools[tool]!.source === at) {
      endpoint += data.tools[tool]!.endpoints.length;
      tool++;
    }
    const defs = [locations.defStart[at]!, locations.defStart[at + 1]!] as const;
    const defNames: Buffer[] = [];
    for (let d = defs[0]; d < defs[1]; d++) {
      defNames.push(
        Buffer.from(
          locations.defNames.buffer,
          locations.defNames.byteOffset + locations.defNameStart[d]!,
          locations.defNameStart[d + 1]! - locations.defNameStart[d]!,
        ),
      );
    }
    sections.push({
      at,
      first,
      end: endpoint,
      source,
      tools: data.tools.slice(firstTool, tool).map((t) => ({ name: t.name, endpoints: t.endpoints })),
      effects: Array.from(data.effects.subarray(first, endpoint), (code) => data.effectNames[code]!),
      lengths: data.componentLengths.subarray(width * first, width * endpoint),
      locations: {
        endpointSpans: locations.endpointSpans.subarray(2 * first, 2 * endpoint),
        endpointDigests: locations.endpointDigests.subarray(32 * first, 32 * endpoint),
        toolSpans: locations.toolSpans.subarray(4 * firstTool, 4 * tool),
        toolDigests: locations.toolDigests.subarray(32 * firstTool, 32 * tool),
        defSpans: locations.defSpans.subarray(2 * defs[0], 2 * defs[1]),
        defNames,
      },
    });
  });
  if (tool !== data.tools.length) throw new TypeError("index tools are not grouped by source in order");
  return sections;
}

/** The index data of `sections` (source order) with their merged postings. */
export function indexDataOfSections(
  surfaceVersion: number,
  sections: readonly SourceSection[],
  merged: MergedPostings,
): RetrievalIndexData {
  const effectNames: string[] = [];
  const codes = new Map<string, number>();
  const endpoints = sections.reduce((n, section) => n + section.effects.length, 0);
  const effects = new Uint8Array(endpoints);
  let e = 0;
  for (const section of sections) {
    for (const name of section.effects) {
      let code = codes.get(name);
      if (code === undefined) {
        code = effectNames.push(name) - 1;
        codes.set(name, code);
      }
      effects[e++] = code;
    }
  }
  const lengths = new Uint32Array(endpoints * LENGTH_BITS.length);
  let row = 0;
  for (const section of sections) {
    lengths.set(section.lengths, row);
    row += section.lengths.length;
  }
  if (row !== lengths.length) throw new TypeError("a section's lengths are not one row per endpoint");
  return {
    surfaceVersion,
    sources: sections.map((section) => section.source),
    tools: sections.flatMap((section, source) =>
      section.tools.map((tool) => ({ name: tool.name, source, endpoints: tool.endpoints })),
    ),
    ...merged,
    effectNames,
    effects,
    lengthBits: LENGTH_BITS,
    componentLengths: lengths,
    locations: joinLocations(sections.map((section) => section.locations)),
  };
}
