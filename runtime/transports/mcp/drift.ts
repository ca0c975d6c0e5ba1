/**
 * Live MCP drift: compares the definitions a server lists now with the remote digests pinned in the
 * lock. A tool whose definition changed, disappeared or newly appeared is drifted and is refused
 * before any `tools/call` is sent; tools that still match keep working.
 */
import { CallRefusedError } from "../../errors/errors.js";
import { mcpRemoteDigest } from "../../format/mcp-digest.js";
import type { ListedTool } from "./list.js";

export type McpDriftKind = "changed" | "disappeared" | "appeared";

/** Per listed name: its remote digest, or null when the server lists the name more than once. */
export type LiveDigests = ReadonlyMap<string, string | null>;

export function liveDigests(tools: readonly ListedTool[]): LiveDigests {
  const live = new Map<string, string | null>();
  for (const tool of tools) live.set(tool.name, live.has(tool.name) ? null : mcpRemoteDigest(tool));
  return live;
}

/** Every drifted tool name with what changed, sorted by name. */
export function computeDrift(
  expected: ReadonlyMap<string, string>,
  live: LiveDigests,
): Map<string, McpDriftKind> {
  const drift: [string, McpDriftKind][] = [];
  for (const [name, digest] of expected) {
    if (!live.has(name)) drift.push([name, "disappeared"]);
    else if (live.get(name) !== digest) drift.push([name, "changed"]);
  }
  for (const name of live.keys()) if (!expected.has(name)) drift.push([name, "appeared"]);
  drift.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(drift);
}

const WHAT: Record<McpDriftKind | "unlocked", string> = {
  changed: "changed its definition since it was locked",
  disappeared: "is no longer listed by the server",
  appeared: "is listed by the server but has no locked definition",
  unlocked: "has no locked definition and is not listed by the server",
};

/** Throws REMOTE_DRIFT unless the live definition of `tool` equals its locked digest. */
export function assertNotDrifted(
  source: string,
  tool: string,
  expected: ReadonlyMap<string, string>,
  live: LiveDigests,
): void {
  const locked = expected.get(tool);
  const actual = live.get(tool);
  let change: McpDriftKind | "unlocked" | undefined;
  if (locked === undefined) change = live.has(tool) ? "appeared" : "unlocked";
  else if (!live.has(tool)) change = "disappeared";
  else if (actual !== locked) change = "changed";
  if (change === undefined) return;
  throw new CallRefusedError(
    "REMOTE_DRIFT",
    `MCP tool "${tool}" of source "${source}" ${WHAT[change]}${actual === null ? " (the server lists it more than once)" : ""}. Nothing was sent. Run \`schemarouter compile\`, review the lockfile diff, and reload.`,
    { source, tool, change, expected: locked ?? null, actual: actual ?? null },
  );
}
