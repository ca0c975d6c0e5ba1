/**
 * Each package imports only Node.js built-ins and the packages its own package.json declares. The
 * workspace root's dev dependencies resolve from every folder, so without this check a compiler or
 * runtime module could use one (say @openapi-contrib/openapi-schema-to-json-schema, kept only as a
 * test oracle) and work in the repository but fail after `npm i @schemarouter/compiler`.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/project.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "dist" || name === "node_modules" ? [] : sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Bare specifiers of import/export statements (also side-effect and dynamic imports). */
const SPECIFIER =
  /^\s*(?:import|export)\s[^;()]*?from\s+["']([^"'./][^"']*)["']|^\s*import\s+["']([^"'./][^"']*)["']|\bimport\(\s*["']([^"'./][^"']*)["']/gm;

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

describe("declared dependencies", () => {
  for (const folder of ["runtime", "compiler"]) {
    it(`${folder}/ imports only built-ins and what ${folder}/package.json declares`, () => {
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, folder, "package.json"), "utf8"));
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      const undeclared: string[] = [];
      for (const file of sources(join(REPO_ROOT, folder))) {
        for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
          const specifier = (match[1] ?? match[2] ?? match[3])!;
          const name = packageName(specifier);
          if (specifier.startsWith("node:") || builtinModules.includes(name) || declared.has(name)) continue;
          undeclared.push(`${relative(REPO_ROOT, file)} → ${specifier}`);
        }
      }
      expect(undeclared).toEqual([]);
    });
  }

  it("the compiler's production install has no prettier, lodash or openapi-typescript", () => {
    // What `npm i @schemarouter/compiler` installs (its optional MCP SDK peer included, as installed here).
    const tree = JSON.parse(
      execFileSync("npm", ["ls", "--omit=dev", "-w", "@schemarouter/compiler", "--all", "--json"], {
        cwd: REPO_ROOT,
        encoding: "utf8",
      }),
    ) as Tree;
    const names = new Set<string>();
    const walk = (node: Tree): void => {
      for (const [name, child] of Object.entries(node.dependencies ?? {})) {
        names.add(name);
        walk(child);
      }
    };
    walk(tree);
    expect(names).toContain("ts-morph");
    expect([...names].filter((name) => ["prettier", "lodash", "openapi-typescript"].includes(name))).toEqual(
      [],
    );
  });
});

interface Tree {
  readonly dependencies?: Record<string, Tree>;
}
