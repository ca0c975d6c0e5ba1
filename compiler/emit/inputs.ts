/**
 * The digests of what generated files depend on. `bindingsInputs`: the artifact bytes, the runtime
 * import, the client template and the compiler version decide a source's binding modules.
 * `sourceInputs`: the source's config entry, its lock entry (document digest, artifact path and
 * digest, every pin) and the compiler version decide that the artifact and lock entry on disk are
 * what compiling the same document again would produce.
 */

import type { LockedSource } from "schemarouter/internal";
import { digestJson, sha256 } from "schemarouter/internal";
import type { SourceConfig } from "../config/config.js";
import { COMPILER_VERSION } from "./version.js";

/** Bump when the generated bindings change shape for the same inputs (invalidates every stamp). */
export const BINDINGS_FORMAT = 2;

export function bindingsInputs(
  source: string,
  artifactDigest: string,
  runtimeImport: string,
  templateText: string,
): string {
  return digestJson({
    format: BINDINGS_FORMAT,
    compiler: COMPILER_VERSION,
    source,
    artifact: artifactDigest,
    runtimeImport,
    template: templateDigest(templateText),
  });
}

let lastTemplate: { readonly text: string; readonly digest: string } | undefined;

/** The client template's digest, hashed once per template text rather than once per source. */
function templateDigest(text: string): string {
  if (lastTemplate?.text !== text) lastTemplate = { text, digest: sha256(text) };
  return lastTemplate.digest;
}

export function sourceInputs(source: string, config: SourceConfig, locked: LockedSource): string {
  return digestJson({ format: BINDINGS_FORMAT, compiler: COMPILER_VERSION, source, config, lock: locked });
}
