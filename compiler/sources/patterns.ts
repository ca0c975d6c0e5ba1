/**
 * Compile-time report of schema `pattern` / `patternProperties` regular expressions the runtime's
 * linear-time engine (runtime/regexp.ts) cannot run: the runtime refuses validators that use them
 * (INPUT_SCHEMA_VIOLATION / OUTPUT_SCHEMA_VIOLATION, reason "unsupported-pattern"), and the
 * compatibility report says so where the pattern is written (construct "unsupported-pattern").
 */

import type { CompatibilityIssue } from "schemarouter/internal";
import { encodePointerToken, patternProblem } from "schemarouter/internal";

/** Keys whose values are instance data, not schemas: a `pattern` key below them is not a keyword. */
export const DATA_KEYS: ReadonlySet<string> = new Set(["const", "default", "enum", "example", "examples"]);
/** Keys whose values map names to schemas or spec objects: every member is walked, whatever its name. */
export const MAP_KEYS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "content",
  "headers",
  "requestBodies",
  "parameters",
  "paths",
  "callbacks",
  "webhooks",
  "pathItems",
]);
const MAX_DEPTH = 256;

/**
 * Walks `value` (a schema, or a document holding schemas) and reports every unsupported pattern at
 * its JSON pointer below `pointer`. `problems` caches verdicts across calls (patterns repeat).
 */
export function reportUnsupportedPatterns(
  value: unknown,
  pointer: string,
  report: (issue: CompatibilityIssue) => void,
  problems: Map<string, string | undefined> = new Map(),
): void {
  const verdict = (pattern: string): string | undefined => {
    if (!problems.has(pattern)) problems.set(pattern, patternProblem(pattern));
    return problems.get(pattern);
  };
  const issue = (at: string, pattern: string, problem: string): CompatibilityIssue => ({
    pointer: at,
    construct: "unsupported-pattern",
    level: "unsupported",
    message: `pattern ${JSON.stringify(pattern)} cannot run on the linear-time regex engine (${problem}); calls whose arguments or output are validated against it are refused.`,
  });
  const seen = new Set<object>();
  // The pointer of a node is built only when a pattern there is reported: most nodes have none.
  const visit = (node: unknown, at: Path | undefined, depth: number, map: boolean): void => {
    if (node === null || typeof node !== "object" || depth > MAX_DEPTH || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, { parent: at, key: String(index) }, depth + 1, false);
      });
      return;
    }
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      const where: Path = { parent: at, key };
      if (map) {
        visit(child, where, depth + 1, false);
        continue;
      }
      if (DATA_KEYS.has(key)) continue;
      if (key === "pattern" && typeof child === "string") {
        const problem = verdict(child);
        if (problem !== undefined) report(issue(pointerOf(pointer, where), child, problem));
        continue;
      }
      if (
        key === "patternProperties" &&
        child !== null &&
        typeof child === "object" &&
        !Array.isArray(child)
      ) {
        for (const pattern of Object.keys(child)) {
          const problem = verdict(pattern);
          if (problem !== undefined)
            report(issue(pointerOf(pointer, { parent: where, key: pattern }), pattern, problem));
        }
      }
      visit(child, where, depth + 1, MAP_KEYS.has(key));
    }
  };
  visit(value, undefined, 0, false);
}

/** Where a node is: the key (or array index) it is at, below its parent's path. */
interface Path {
  readonly parent: Path | undefined;
  readonly key: string;
}

function pointerOf(root: string, path: Path): string {
  const tokens: string[] = [];
  for (let at: Path | undefined = path; at !== undefined; at = at.parent)
    tokens.push(encodePointerToken(at.key));
  return `${root}/${tokens.reverse().join("/")}`;
}
