/**
 * Applies OpenAPI Overlay 1.0 actions to a parsed document, in place and in order
 * (docs/sources/openapi-overlays.md): each action's `target` (RFC 9535 JSONPath, evaluated by
 * jsonpath-rfc9535 against the document as the earlier actions left it) selects nodes; `update` is
 * merged into each selected object (objects merged recursively, arrays appended, other values
 * replaced) or appended to each selected array; `remove: true` removes each selected node from the
 * object or array that holds it (and `update` then has no effect, as the specification says).
 */
import { exec } from "jsonpath-rfc9535";
import { SourceError } from "../../../errors/errors.js";
import type { OverlayAction, OverlayDocument } from "./overlay-document.js";

type Node = Record<string, unknown>;
type Path = readonly (string | number)[];

export interface AppliedAction {
  readonly index: number;
  readonly target: string;
  readonly kind: "update" | "remove";
  /** Nodes the target selected (0: the action changed nothing, and compile warns). */
  readonly matched: number;
}

export function applyOverlayActions(source: string, doc: Node, overlay: OverlayDocument): AppliedAction[] {
  return overlay.actions.map((action) => applyAction(source, doc, overlay.file, action));
}

function applyAction(source: string, doc: Node, file: string, action: OverlayAction): AppliedAction {
  const fail = (message: string) =>
    new SourceError(
      source,
      "SPEC_OVERLAY_INVALID",
      `overlay ${file} at /actions/${action.index}: ${message}`,
      { file, pointer: `/actions/${action.index}` },
    );
  const matches: { value: unknown; path: Path }[] = [];
  exec(doc as never, action.target, (value, path) => {
    matches.push({ value, path: path.map(denormalize) });
  });
  const kind = action.remove ? "remove" : "update";
  if (action.remove) {
    // Each node once, deepest and highest index first: removing one never shifts a path still to remove.
    const unique = new Map(matches.map((match) => [pointerOf(match.path), match.path]));
    for (const path of [...unique.values()].sort(removalOrder)) {
      if (path.length === 0)
        throw fail(`target ${action.target} selects the whole document, which cannot be removed.`);
      const parent = nodeAt(doc, path.slice(0, -1));
      const key = path.at(-1)!;
      if (Array.isArray(parent) && typeof key === "number" && key < parent.length) parent.splice(key, 1);
      else if (isObject(parent) && typeof key === "string" && Object.hasOwn(parent, key)) delete parent[key];
      // Otherwise an earlier match (an ancestor) was removed already.
    }
  } else {
    const seen = new Set<unknown>();
    for (const { value, path } of matches) {
      if (seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) value.push(structuredClone(action.update));
      else if (isObject(value)) {
        if (!isObject(action.update))
          throw fail(
            `target ${action.target} selects an object at ${pointerOf(path)}; "update" must then be an object of the members to merge.`,
          );
        merge(value, action.update);
      } else
        throw fail(
          `target ${action.target} selects ${JSON.stringify(value)} at ${pointerOf(path)}; an update target must select objects or arrays (select the object holding the value and update its member).`,
        );
    }
  }
  return { index: action.index, target: action.target, kind, matched: matches.length };
}

/** Overlay 1.0 merge: objects recursively, arrays appended, everything else replaced. */
function merge(target: Node, update: Node): void {
  for (const key of Object.keys(update)) {
    const next = update[key];
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(current) && isObject(next)) merge(current, next);
    else if (Array.isArray(current) && Array.isArray(next)) current.push(...structuredClone(next));
    // defineProperty: a "__proto__" member is an ordinary key here, never the object's prototype.
    else
      Object.defineProperty(target, key, {
        value: structuredClone(next),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
}

/** Later siblings before earlier ones, descendants before their ancestors. */
function removalOrder(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return String(x) < String(y) ? 1 : -1;
  }
  return b.length - a.length;
}

function nodeAt(doc: unknown, path: Path): unknown {
  let current = doc;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isObject(current) && typeof key === "string" && Object.hasOwn(current, key))
      current = current[key];
    else return undefined;
  }
  return current;
}

/** jsonpath-rfc9535 reports member names as in a normalized path (RFC 9535 §2.7); this undoes that escaping. */
function denormalize(key: string | number): string | number {
  if (typeof key === "number") return key;
  return key.replace(/\\(u[0-9a-fA-F]{4}|[bfnrt'\\])/g, (_, sequence: string) => {
    switch (sequence) {
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "'":
        return "'";
      case "\\":
        return "\\";
      default:
        return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    }
  });
}

function pointerOf(path: Path): string {
  return path.length === 0
    ? "the root"
    : path.map((key) => `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function isObject(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
