/**
 * Forging artifacts the way an attacker who knows the line layout would: edit endpoint or definition
 * lines, then (optionally) recompute the artifact's self-digest and the lockfile's artifact digest —
 * but never a fingerprint, which only a recompile from a trusted document produces.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJson, sha256 } from "../../runtime/format/fingerprint.js";
import type { TempProject } from "./project.js";

export interface ForgeOptions {
  /** Recompute the recorded self-digest (default true). */
  readonly selfDigest?: boolean;
  /** Rewrite the lockfile's artifact digest to the new bytes (default true). */
  readonly lockDigest?: boolean;
}

export function artifactPath(project: TempProject, source: string): string {
  return join(project.outDir, "artifacts", `${source}.json`);
}

/** Rewrites `<source>.json` line by line (see runtime/artifact-layout.ts for the layout). */
export function forgeArtifact(
  project: TempProject,
  source: string,
  edit: (lines: string[]) => void,
  options: ForgeOptions = {},
): string {
  const path = artifactPath(project, source);
  const lines = readFileSync(path, "utf8").split("\n");
  edit(lines);
  const at = lines.findIndex((line) => line.startsWith(',"digest":'));
  if (options.selfDigest !== false) {
    lines[at] = `,"digest":${JSON.stringify(sha256(lines.filter((_, index) => index !== at).join("")))}`;
  }
  const text = lines.join("\n");
  writeFileSync(path, text);
  if (options.lockDigest !== false) setLockedArtifactDigest(project, source, sha256(text));
  return text;
}

export function setLockedArtifactDigest(project: TempProject, source: string, digest: string): void {
  const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
  lock.sources[source].artifact.digest = digest;
  writeFileSync(project.lockfile, `${JSON.stringify(lock, null, 2)}\n`);
}

type Json = Record<string, unknown>;

/** Indexes of the definition lines and of each tool's endpoint lines (see artifact-layout.ts). */
export function lineGroups(lines: readonly string[]): { defs: number[]; endpoints: number[][] } {
  const defs: number[] = [];
  let at = 1;
  for (; lines[at] !== "}"; at++) defs.push(at);
  const endpoints: number[][] = [];
  for (; at < lines.length; at++) {
    if (!lines[at]!.endsWith('"endpoints":[')) continue;
    const group: number[] = [];
    for (at++; !lines[at]!.startsWith("]"); at++) group.push(at);
    endpoints.push(group);
    at--;
  }
  return { defs, endpoints };
}

/** A definition or endpoint line without its list comma. */
export function itemText(line: string): string {
  return line.endsWith(",") ? line.slice(0, -1) : line;
}

/** Edits the endpoint line named `name` (its value stays canonical JSON, comma kept). */
export function editEndpoint(lines: string[], name: string, mutate: (endpoint: Json) => void): void {
  const at = lineGroups(lines)
    .endpoints.flat()
    .find((index) => (JSON.parse(itemText(lines[index]!)) as Json).name === name);
  if (at === undefined) throw new Error(`no endpoint line "${name}"`);
  rewrite(lines, at, (text) => {
    const endpoint = JSON.parse(text) as Json;
    mutate(endpoint);
    return canonicalJson(endpoint);
  });
}

/** Edits the shared definition line `"<name>":…`. */
export function editDefinition(lines: string[], name: string, mutate: (def: Json) => void): void {
  const key = `${JSON.stringify(name)}:`;
  const at = lineGroups(lines).defs.find((index) => lines[index]!.startsWith(key));
  if (at === undefined) throw new Error(`no definition line "${name}"`);
  rewrite(lines, at, (text) => {
    const def = JSON.parse(text.slice(key.length)) as Json;
    mutate(def);
    return `${key}${canonicalJson(def)}`;
  });
}

function rewrite(lines: string[], at: number, edit: (text: string) => string): void {
  const line = lines[at]!;
  lines[at] = `${edit(itemText(line))}${line.endsWith(",") ? "," : ""}`;
}
