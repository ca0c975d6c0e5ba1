/**
 * The repository layout rules (docs/development.md): the runtime package never imports the compiler and
 * imports only packages it declares; the compiler reaches the runtime only through its package name; the
 * runtime's root stays a small facade; and within each package no folder depends on a folder that
 * depends back on it (the folder graph has no cycle).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/project.js";

interface ImportSite {
  readonly file: string;
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "dist" || name === "node_modules") return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): ImportSite[] {
  const text = readFileSync(file, "utf8");
  const sites: ImportSite[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gm)) {
    sites.push({ file, specifier: match[2]!, typeOnly: match[1] !== undefined, dynamic: false });
  }
  for (const match of text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) {
    sites.push({ file, specifier: match[1]!, typeOnly: false, dynamic: false });
  }
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
    sites.push({ file, specifier: match[1]!, typeOnly: false, dynamic: true });
  }
  return sites;
}

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const isRelative = (specifier: string) => specifier.startsWith(".");
const isBuiltin = (specifier: string) =>
  specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));

function manifest(dir: string): {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
} {
  return JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8"));
}

/** The folder a file belongs to for the layout rules: its first directory, `transports/<kind>` on its own. */
function folderOf(pkgRoot: string, file: string): string {
  const parts = relative(pkgRoot, file).split(sep);
  if (parts.length === 1) return "(root)";
  if (parts[0] === "transports" && parts.length > 2) return `transports/${parts[1]}`;
  return parts[0]!;
}

/** Folder → folders it imports (relative imports that leave the folder). */
function folderGraph(pkg: string): Map<string, Map<string, string>> {
  const pkgRoot = join(REPO_ROOT, pkg);
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(pkgRoot)) {
    for (const site of importsOf(file).filter((s) => isRelative(s.specifier))) {
      const from = folderOf(pkgRoot, file);
      const to = folderOf(pkgRoot, resolve(dirname(file), site.specifier));
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      edges.set(to, `${relative(REPO_ROOT, file)} → ${site.specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every cycle's folders (Tarjan's strongly connected components of size > 1). */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("repository layout", () => {
  it("the runtime never imports the compiler, and imports only packages its package.json declares", () => {
    const runtimeRoot = join(REPO_ROOT, "runtime");
    const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = manifest("runtime");
    const offenders: string[] = [];
    for (const file of sourceFiles(runtimeRoot)) {
      for (const site of importsOf(file)) {
        const where = `${relative(REPO_ROOT, file)} → ${site.specifier}`;
        if (isRelative(site.specifier)) {
          const target = resolve(dirname(file), site.specifier);
          if (!target.startsWith(runtimeRoot + sep)) offenders.push(`${where} (leaves runtime/)`);
          continue;
        }
        if (isBuiltin(site.specifier) || site.specifier === "schemarouter") continue;
        const name = packageOf(site.specifier);
        if (name === "@schemarouter/compiler") offenders.push(`${where} (the compiler)`);
        else if (name in dependencies) continue;
        else if (name in peerDependencies && peerDependenciesMeta[name]?.optional) {
          // An optional peer may be missing: only type imports or lazy dynamic imports.
          if (!site.typeOnly && !site.dynamic) offenders.push(`${where} (optional peer: import lazily)`);
        } else offenders.push(`${where} (not a dependency of the runtime package)`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the compiler reaches the runtime only through the package name", () => {
    const compilerRoot = join(REPO_ROOT, "compiler");
    const offenders = sourceFiles(compilerRoot)
      .flatMap(importsOf)
      .filter((site) => isRelative(site.specifier))
      .filter((site) => !resolve(dirname(site.file), site.specifier).startsWith(compilerRoot + sep))
      .map((site) => `${relative(REPO_ROOT, site.file)} → ${site.specifier}`);
    expect(offenders).toEqual([]);
    const declared = manifest("compiler").dependencies ?? {};
    expect(declared.schemarouter).toBeDefined();
  });

  it("the runtime's root holds the facade and package files only (at most 8 files)", () => {
    const files = readdirSync(join(REPO_ROOT, "runtime")).filter((name) =>
      statSync(join(REPO_ROOT, "runtime", name)).isFile(),
    );
    expect(files.length).toBeLessThanOrEqual(8);
  });

  it.each(["runtime", "compiler"])("no folder of %s/ imports a folder that imports it back", (pkg) => {
    const graph = folderGraph(pkg);
    const found = cycles(graph).map((members) =>
      members.map((from) =>
        members
          .filter((to) => graph.get(from)?.has(to))
          .map((to) => `${from} → ${to} (${graph.get(from)!.get(to)})`),
      ),
    );
    expect(found).toEqual([]);
    // Root files are the facade: folders never import them.
    const intoRoot = [...graph].filter(([, edges]) => edges.has("(root)")).map(([from]) => from);
    expect(intoRoot).toEqual([]);
  });
});
