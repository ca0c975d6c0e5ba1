/**
 * `specOverlays` of an OpenAPI source (docs/sources/openapi-overlays.md): the OpenAPI Overlay 1.0
 * documents the config lists are read and applied in order to the parsed source document before
 * anything compiles it. What each one did is kept as tool metadata (shown by `compile`, `inspect` and
 * `diff`), an action whose target selects nothing is a warning, and the overlay files' digests join
 * the document digest in the lock, so editing an overlay is drift that `compile --check` and `check` see.
 */
import type { JsonObject } from "schemarouter/internal";
import { digestJson } from "schemarouter/internal";
import { type AppliedAction, applyOverlayActions } from "./apply.js";
import { readOverlayDocument } from "./overlay-document.js";

export interface AppliedOverlay {
  readonly file: string;
  readonly title: string;
  readonly version: string;
  readonly digest: string;
  readonly actions: readonly AppliedAction[];
}

export interface AppliedOverlays {
  readonly overlays: readonly AppliedOverlay[];
  /** Lines `compile` prints: per overlay, each action and the nodes it matched. */
  readonly notes: readonly string[];
  /** One per action whose target matched nothing. */
  readonly warnings: readonly string[];
}

/** Reads every overlay, then applies them to `doc` in place, in the order given. */
export async function applySpecOverlays(
  source: string,
  doc: Record<string, unknown>,
  files: readonly string[],
  cwd: string,
): Promise<AppliedOverlays> {
  // Every file is read and checked before the document is touched.
  const documents = [];
  for (const file of files) documents.push(await readOverlayDocument(source, file, cwd));
  const overlays: AppliedOverlay[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  for (const overlay of documents) {
    const actions = applyOverlayActions(source, doc, overlay);
    overlays.push({
      file: overlay.file,
      title: overlay.title,
      version: overlay.version,
      digest: overlay.digest,
      actions,
    });
    const matched = actions.filter((action) => action.matched > 0).length;
    notes.push(
      `overlay ${overlay.file} ("${overlay.title}" ${overlay.version}): ${matched} of ${actions.length} action(s) applied`,
      ...actions.map(
        (action) => `  #${action.index} ${action.kind} ${action.target}: ${action.matched} node(s) matched`,
      ),
    );
    for (const action of actions)
      if (action.matched === 0)
        warnings.push(
          `overlay ${overlay.file} action #${action.index} (${action.kind} ${action.target}) matched nothing in the document; it changed nothing. Fix the target or remove the action.`,
        );
  }
  return { overlays, notes, warnings };
}

/** The lock's document digest of a source with overlays: over the document and every overlay file. */
export function overlaidDigest(documentDigest: string, applied: AppliedOverlays): string {
  if (applied.overlays.length === 0) return documentDigest;
  return digestJson({
    document: documentDigest,
    specOverlays: applied.overlays.map((overlay) => ({ file: overlay.file, digest: overlay.digest })),
  });
}

/** Tool metadata recording what the overlays did (not fingerprinted; compared by `diff`). */
export function overlayMetadata(applied: AppliedOverlays): JsonObject {
  return {
    specOverlays: applied.overlays.map((overlay) => ({
      file: overlay.file,
      title: overlay.title,
      version: overlay.version,
      digest: overlay.digest,
      actions: overlay.actions.map((action) => ({
        index: action.index,
        kind: action.kind,
        target: action.target,
        matched: action.matched,
      })),
    })),
  };
}
