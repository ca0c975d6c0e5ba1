/**
 * Reads templates/source-client.ts (a real, type-checked module) and splits it into the static pieces
 * the client emitter stamps out: the runtime import, the pins envelope, the field-path interface, the
 * field-ID alias, one client method signature and the factory function. Placeholders start with `__`.
 * The template is parsed with ts-morph (loaded lazily, only when bindings are emitted); each piece is
 * the text of one top-level declaration, found by kind and name.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CompileError } from "../errors/errors.js";

/** The build copies templates/ into the package (dist/templates/); from source it is the repository's. */
const TEMPLATE_CANDIDATES = ["../templates/source-client.ts", "../../templates/source-client.ts"].map(
  (path) => fileURLToPath(new URL(path, import.meta.url)),
);
/** The runtime import specifier the template uses (replaced by the configured `runtimeImport`). */
const TEMPLATE_RUNTIME = '"../runtime/index.js"';

export interface ClientTemplate {
  /** The template text as read (its digest is part of the bindings inputs). */
  readonly text: string;
  /** The runtime import statement, with the specifier replaced by `{{runtime}}`. */
  readonly runtimeImport: string;
  /** `export const pins = {` … `} as const;` around the pin entries. */
  readonly pinsOpen: string;
  readonly pinsClose: string;
  /** Field-path interface: header line with `__Fields`, one property line, closing line. */
  readonly fieldsOpen: string;
  readonly fieldProperty: string;
  readonly fieldsClose: string;
  /** `export type __Field = keyof __Fields;` */
  readonly fieldAlias: string;
  /** Client interface header (with `__Client`) and closing line. */
  readonly clientOpen: string;
  readonly clientClose: string;
  /** One method signature on a single line, with `__method`, `__Field`, `__Input`, `__Output`, `__Fields`. */
  readonly method: string;
  /** The factory function, with `__createClient` and `__Client`. */
  readonly factory: string;
}

/** The template's text (cheap: what binding stamps digest; no parsing). */
export async function readTemplateText(): Promise<string> {
  for (const path of TEMPLATE_CANDIDATES) {
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text !== undefined) return text;
  }
  throw new CompileError(
    "TEMPLATE_INVALID",
    `templates/source-client.ts not found (looked in ${TEMPLATE_CANDIDATES.join(", ")}); reinstall the package.`,
    { paths: TEMPLATE_CANDIDATES },
  );
}

export async function readClientTemplate(): Promise<ClientTemplate> {
  return parseClientTemplate(await readTemplateText());
}

/** Splits the template into its pieces with ts-morph. Throws TEMPLATE_INVALID when one is missing. */
export async function parseClientTemplate(text: string): Promise<ClientTemplate> {
  const { Project } = await import("ts-morph");
  const file = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
  }).createSourceFile("source-client.ts", text.replace(/\r\n/g, "\n"));
  const textOf = (node: { getText(): string } | undefined, what: string): string => {
    if (node === undefined) throw templateError(what);
    return node.getText();
  };
  const importBlock = textOf(
    file.getImportDeclarations().find((decl) => decl.getModuleSpecifierValue() === "../runtime/index.js"),
    "the runtime import",
  );
  const pins = lines(textOf(file.getVariableStatement("pins"), "the pins object"));
  const fields = lines(textOf(file.getInterface("__Fields"), "the __Fields interface"));
  const client = lines(textOf(file.getInterface("__Client"), "the __Client interface"));
  const factory = textOf(file.getFunction("__createClient"), "the __createClient function");
  const fieldAlias = textOf(file.getTypeAlias("__Field"), "the __Field alias");
  if (fieldAlias !== "export type __Field = keyof __Fields;") throw templateError("the __Field alias");
  if (fields.length !== 3) throw templateError("a one-property __Fields interface");
  // client.ts types a field with a resultPath by rewriting this path type (docs/runtime/field-projection.md).
  if (!fields[1]!.trimEnd().endsWith(': readonly ["__field"];'))
    throw templateError('a __Fields property typed `readonly ["__field"]`');
  const signature = client.slice(1, -1).filter((line) => !/^\s*(\/\*\*|\*)/.test(line));
  if (signature.length === 0 || !signature[0]!.trim().startsWith("__method<"))
    throw templateError("one __method signature in __Client");
  return {
    text,
    runtimeImport: importBlock.replace(TEMPLATE_RUNTIME, "{{runtime}}"),
    pinsOpen: pins[0]!,
    pinsClose: pins[pins.length - 1]!,
    fieldsOpen: fields[0]!,
    fieldProperty: fields[1]!,
    fieldsClose: fields[2]!,
    fieldAlias,
    clientOpen: client[0]!,
    clientClose: client[client.length - 1]!,
    method: oneLine(signature),
    factory,
  };
}

function lines(block: string): string[] {
  return block.split("\n");
}

/** Joins a multi-line signature into one line: `f(\n  a: A,\n  b: B,\n): R;` → `f(a: A, b: B): R;`. */
function oneLine(signature: readonly string[]): string {
  return signature
    .map((line) => line.trim())
    .join(" ")
    .replace(/\(\s+/g, "(")
    .replace(/,?\s+\)/g, ")");
}

function templateError(what: string): CompileError<"TEMPLATE_INVALID"> {
  return new CompileError(
    "TEMPLATE_INVALID",
    `templates/source-client.ts does not have ${what}; restore the template from the package.`,
  );
}
