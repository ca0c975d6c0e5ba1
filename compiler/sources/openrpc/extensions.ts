/**
 * Specification Extensions (`x-` keys, OpenRPC 1.3 "Specification Extensions"): ignored, and each
 * one reported where it is written (docs/sources/openrpc.md "Compatibility report"), at most
 * MAX_REPORTED of them; the rest are counted in one last entry. `x-unit` in a schema is kept as a
 * field's unit, like in every source kind.
 */
import type { CompatibilityIssue } from "schemarouter/internal";
import { encodePointerToken } from "schemarouter/internal";

export const MAX_REPORTED_EXTENSIONS = 100;

/** Keys whose values are data: `x-` keys inside them are not extensions. */
const DATA_KEYS = new Set(["const", "default", "enum", "examples", "example", "value"]);

export function reportExtensions(doc: unknown, report: (issue: CompatibilityIssue) => void): void {
  const found: string[] = [];
  const pending: [unknown, string][] = [[doc, ""]];
  while (pending.length > 0) {
    const [node, at] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        pending.push([item, `${at}/${index}`]);
      });
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      const pointer = `${at}/${encodePointerToken(key)}`;
      if (key.startsWith("x-")) {
        if (key !== "x-unit") found.push(pointer);
        continue;
      }
      if (!DATA_KEYS.has(key)) pending.push([value, pointer]);
    }
  }
  found.sort();
  for (const pointer of found.slice(0, MAX_REPORTED_EXTENSIONS))
    report({
      pointer,
      construct: "specification-extension",
      level: "partial",
      message: `the extension ${pointer.slice(pointer.lastIndexOf("/") + 1)} is ignored.`,
    });
  if (found.length > MAX_REPORTED_EXTENSIONS)
    report({
      pointer: "",
      construct: "specification-extension",
      level: "partial",
      message: `${found.length - MAX_REPORTED_EXTENSIONS} more extensions are ignored (not listed).`,
    });
}
