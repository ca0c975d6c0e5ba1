/**
 * Temporary projects under test/tmp/ (gitignored, inside the repository so the generated bindings can
 * import the runtime sources by relative path).
 */
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

export interface TempProject {
  readonly dir: string;
  readonly configPath: string;
  readonly outDir: string;
  readonly lockfile: string;
  /** The runtimeImport that makes generated bindings in outDir use this repository's runtime sources. */
  readonly runtimeImport: string;
  write(config: Record<string, unknown>): void;
}

export function tempProject(name = "project"): TempProject {
  const dir = join(REPO_ROOT, "test", "tmp", `${name}-${randomUUID().slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  const outDir = join(dir, "generated");
  const runtimeImport = relative(outDir, join(REPO_ROOT, "runtime", "index.js"))
    .split("\\")
    .join("/");
  const configPath = join(dir, "schemarouter.config.json");
  return {
    dir,
    configPath,
    outDir,
    lockfile: join(dir, "schemarouter.lock.json"),
    runtimeImport,
    write(config) {
      writeFileSync(
        configPath,
        `${JSON.stringify({ outDir: "generated", runtimeImport, ...config }, null, 2)}\n`,
      );
    },
  };
}

/** Copies a file of the repository into the project (e.g. an example document). */
export function copyInto(project: TempProject, from: string, to: string): string {
  const target = join(project.dir, to);
  cpSync(join(REPO_ROOT, from), target);
  return target;
}

export function writeInto(project: TempProject, to: string, contents: string): string {
  const target = join(project.dir, to);
  writeFileSync(target, contents);
  return target;
}

/**
 * Every file under the project (path relative to it → contents in `encoding`), its config excluded:
 * what a compile wrote, for comparing two compiles byte for byte.
 */
export function projectTree(
  project: TempProject,
  encoding: "utf8" | "base64" = "utf8",
): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name !== "schemarouter.config.json")
        out[relative(project.dir, path)] = readFileSync(path).toString(encoding);
    }
  };
  walk(project.dir);
  return out;
}
