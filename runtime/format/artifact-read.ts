/**
 * Reading a version-2 artifact's values from its line layout: the whole artifact at once (compiler,
 * diff, tests), or the shared definitions as a DefinitionSet whose digests are read off the file's
 * bytes and whose values are parsed on first access (runtime load).
 */

import { LoadError } from "../errors/errors.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, JsonSchema } from "../model/specs.js";
import type { Artifact } from "./artifact.js";
import { type ArtifactLayout, readArtifactLayout, type Span, textOf } from "./artifact-layout.js";
import { DefinitionSet } from "./fingerprint.js";

/**
 * Parses a whole artifact file: its value is exactly `JSON.parse` of the file (same members, same
 * key order), after the layout and self-digest checks of `readArtifactLayout`. Throws LoadError.
 */
export function parseArtifact(input: Uint8Array | string, where: string): Artifact {
  const bytes =
    typeof input === "string"
      ? Buffer.from(input, "utf8")
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const layout = readArtifactLayout(bytes, where);
  const artifact = layout.skeleton as unknown as Record<string, unknown>;
  const defs: Record<string, unknown> = {};
  for (const [name, span] of layout.defs) setOwn(defs, name, parseSpan(layout, span, where, `$defs/${name}`));
  artifact.$defs = defs;
  layout.skeleton.tools.forEach((tool, position) => {
    const index = layout.skeleton.endpointIndex[tool.name]!;
    const endpoints = layout.endpoints[position]!.map((span, at) => {
      const endpoint = parseSpan(layout, span, where, `${tool.name} endpoint ${at + 1}`) as EndpointSpec;
      const [name, effect] = index[at]!;
      if (endpoint === null || endpoint.name !== name || endpoint.effect !== effect) {
        throw new LoadError(
          "ARTIFACT_INVALID",
          `${where}: endpoint ${at + 1} of tool "${tool.name}" does not match the artifact's endpoint index; re-run \`schemarouter compile\`.`,
          { path: where, tool: tool.name, endpoint: name },
        );
      }
      return endpoint;
    });
    (tool as unknown as Record<string, unknown>).endpoints = endpoints;
  });
  return layout.skeleton;
}

/**
 * The artifact's shared definitions, none parsed yet: `defs[name]` parses (and deep-freezes) one on
 * first access; digests and `$ref` closures come from the canonical bytes without parsing.
 */
export function artifactDefinitions(layout: ArtifactLayout, where: string): DefinitionSet {
  const record: Record<string, JsonSchema> = {};
  for (const [name, span] of layout.defs) {
    let value: JsonSchema | undefined;
    Object.defineProperty(record, name, {
      enumerable: true,
      get: () => {
        value ??= deepFreeze(parseSpan(layout, span, where, `$defs/${name}`) as JsonSchema);
        return value;
      },
    });
  }
  return new DefinitionSet(Object.freeze(record), {
    canonicalBytes: (name) => {
      const span = layout.defs.get(name);
      return span === undefined ? undefined : layout.bytes.subarray(span.start, span.end);
    },
  });
}

/** JSON.parse of one span; ARTIFACT_INVALID when it is not JSON. */
export function parseSpan(
  layout: Pick<ArtifactLayout, "bytes">,
  span: Span,
  where: string,
  what: string,
): unknown {
  try {
    return JSON.parse(textOf(layout.bytes, span));
  } catch (error) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where}: ${what} is not valid JSON; re-run \`schemarouter compile\`.`,
      { path: where, member: what },
      { cause: error },
    );
  }
}

/** An own data property, as JSON.parse makes it (also for a name such as `__proto__`). */
function setOwn(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, writable: true, enumerable: true, configurable: true });
}
