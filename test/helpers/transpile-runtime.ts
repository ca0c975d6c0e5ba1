/**
 * The runtime's TypeScript sources transpiled (TypeScript's transpileModule, no type check) into a
 * folder inside the repository, so child processes of a test import the same code the tests run
 * from source, and resolve its packages (`pg`, `ajv`, …) from the repository's node_modules.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "./project.js";

/** Transpiles `entries` (repository paths) and every module they import relatively into `outDir`. */
export function transpileRuntime(outDir: string, entries: readonly string[]): void {
  const pending = entries.map((entry) => join(REPO_ROOT, entry));
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (fileName.startsWith(".")) pending.push(resolve(dirname(file), fileName.replace(/\.js$/, ".ts")));
    }
    const { outputText } = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    const target = join(outDir, relative(REPO_ROOT, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(outDir, "package.json"), '{ "type": "module" }\n');
}
