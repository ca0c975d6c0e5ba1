/**
 * What the OpenAPI overlays of a source did, compared (docs/sources/openapi-overlays.md): the tool
 * metadata records each overlay file's digest and, per action, its target and the nodes it matched.
 * A difference is reported once with both summaries; the contract changes the overlays caused are
 * classified by their own rules.
 */
import type { ToolSpec } from "schemarouter/internal";
import { canonical } from "./context.js";
import { draft, type Emit } from "./report.js";

interface RecordedOverlay {
  readonly file?: unknown;
  readonly digest?: unknown;
  readonly actions?: readonly { kind?: unknown; target?: unknown; matched?: unknown }[];
}

export function diffSpecOverlays(a: ToolSpec, b: ToolSpec, emit: Emit): void {
  const before = a.metadata?.specOverlays;
  const after = b.metadata?.specOverlays;
  if (canonical(before) === canonical(after)) return;
  emit(
    draft(
      "/metadata/specOverlays",
      "tool.spec-overlays-changed",
      `OpenAPI overlays applied: ${summary(before)} before, ${summary(after)} now`,
      before,
      after,
    ),
  );
}

/** `file (sha256:abcd…): #0 update $.x → 1, …` per overlay, or `none`. */
function summary(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return "none";
  return (value as RecordedOverlay[])
    .map((overlay) => {
      const actions = (overlay.actions ?? [])
        .map(
          (action, index) =>
            `#${index} ${String(action.kind)} ${String(action.target)} → ${String(action.matched)}`,
        )
        .join(", ");
      return `${String(overlay.file)} (${String(overlay.digest).slice(0, 14)}…): ${actions}`;
    })
    .join("; ");
}
