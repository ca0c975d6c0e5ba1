/**
 * Mutual assignability under the TypeScript compiler: our declarations module, the
 * json-schema-to-typescript module (which imports ours for shared definitions), and one pair of type
 * aliases per compared schema, type-checked in memory with the repository's strict options. A pair
 * agrees when each side is assignable to the other.
 */
import ts from "typescript";
import { OURS } from "./pairs.js";

export type Relation = "equivalent" | "ours-narrower" | "ours-wider" | "incomparable";

export interface Checked {
  readonly key: string;
  readonly relation: Relation;
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts"],
  types: [],
  noEmit: true,
  skipLibCheck: true,
};

/** TypeScript's own declaration files, parsed once for every program of the differential. */
const LIBRARY_FILES = new Map<string, ts.SourceFile>();

/**
 * `ours`: our module; `theirs`: json-schema-to-typescript's module, whose root interface `root` has
 * one member per key; `pairs`: key → our declared type name.
 */
export function checkPairs(
  ours: string,
  theirs: string,
  root: string,
  pairs: readonly { readonly key: string; readonly ours: string }[],
): { readonly checked: readonly Checked[]; readonly diagnostics: readonly string[] } {
  const dir = "/differential";
  const check = [
    `import type * as ${OURS} from "./ours.js";`,
    `import type { ${root} as Theirs } from "./theirs.js";`,
    ...pairs.flatMap((pair, index) => [
      `export type O${index} = ${OURS}.${pair.ours};`,
      `export type T${index} = Theirs[${JSON.stringify(pair.key)}];`,
    ]),
  ].join("\n");
  const files = new Map([
    [`${dir}/ours.ts`, ours],
    [`${dir}/theirs.ts`, `import type * as ${OURS} from "./ours.js";\n${theirs}`],
    [`${dir}/check.ts`, check],
    [`${dir}/package.json`, '{ "type": "module" }'],
  ]);
  const host = ts.createCompilerHost(OPTIONS, true);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (path) => files.has(path) || ts.sys.fileExists(path);
  host.directoryExists = (path) => path === dir || ts.sys.directoryExists(path);
  host.readFile = (path) => files.get(path) ?? readFile(path);
  host.getSourceFile = (path, version, onError, create) => {
    const text = files.get(path);
    if (text !== undefined) return ts.createSourceFile(path, text, version, true, ts.ScriptKind.TS);
    let library = LIBRARY_FILES.get(path);
    if (library === undefined) {
      library = getSourceFile(path, version, onError, create);
      if (library !== undefined) LIBRARY_FILES.set(path, library);
    }
    return library;
  };
  const program = ts.createProgram([`${dir}/check.ts`], OPTIONS, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(`${dir}/check.ts`)!;
  const aliases = source.statements.filter(ts.isTypeAliasDeclaration);
  const checked = pairs.map((pair, index) => {
    const a = checker.getTypeFromTypeNode(aliases[2 * index]!.type);
    const b = checker.getTypeFromTypeNode(aliases[2 * index + 1]!.type);
    const toTheirs = checker.isTypeAssignableTo(a, b);
    const toOurs = checker.isTypeAssignableTo(b, a);
    const relation: Relation =
      toTheirs && toOurs ? "equivalent" : toTheirs ? "ours-narrower" : toOurs ? "ours-wider" : "incomparable";
    return { key: pair.key, relation };
  });
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].map(
    (diagnostic) =>
      `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
  );
  return { checked, diagnostics };
}
