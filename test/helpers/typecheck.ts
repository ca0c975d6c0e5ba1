/**
 * Type-checks generated bindings with the TypeScript compiler API (`--strict`, NodeNext), as a user's
 * `tsc` would: every `.ts` file of a directory, with the runtime they import.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
};

/** Diagnostics as `file: message` lines (empty when the bindings compile); `extra` adds files to check. */
export function typecheckDirectory(dir: string, extra: readonly string[] = []): string[] {
  const roots = [
    ...readdirSync(dir)
      .filter((name) => name.endsWith(".ts"))
      .map((name) => join(dir, name)),
    ...extra,
  ];
  const program = ts.createProgram(roots, OPTIONS);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || roots.includes(diagnostic.file.fileName))
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName.slice(dir.length + 1) ?? ""}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
}
