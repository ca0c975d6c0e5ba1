/**
 * Typed bindings: per source a types declaration module (schema types from schema-types.ts, plus the
 * field-path interfaces) and a client module stamped as text from templates/source-client.ts; plus
 * `index.ts` with `createClient(router)`. Every method embeds the endpoint and tool fingerprints it
 * was generated from. A source's modules carry an inputs stamp; when the files on disk carry the
 * stamp this compile would write, they are kept instead of being generated again.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { LockedSource, Lockfile } from "schemarouter/internal";
import { readRegularFileSync } from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import { clientModuleBody, fieldInterfaces } from "./client.js";
import type { CompileCache } from "./compile-cache.js";
import { bindingsInputs, sourceInputs } from "./inputs.js";
import type { CompiledSource } from "./lockfile.js";
import { pascalCase } from "./names.js";
import { planMethods } from "./plan.js";
import { bindingToolsOf, routerBindingsType } from "./router-bindings.js";
import { GENERATED_HEADER, readStampInputs, stamped } from "./stamp.js";
import { type ClientTemplate, parseClientTemplate, readTemplateText } from "./template.js";
import { emitTypes } from "./types.js";
import { fileOnDisk, type OutputFile } from "./write.js";
import type { RecordView, WrittenRecord } from "./written-record.js";

export { GENERATED_HEADER } from "./stamp.js";

/**
 * Where a source's binding modules live: the client module, the types module application code
 * imports, and the declaration file behind it (schema types and field paths). Declarations are only
 * resolved where they are used, so type-checking an application does not pay for every endpoint.
 */
export function bindingPaths(
  outDir: string,
  source: string,
): { client: string; types: string; declarations: string } {
  return {
    client: join(outDir, `${source}.ts`),
    types: join(outDir, `${source}.types.ts`),
    declarations: join(outDir, `${source}.schemas.d.ts`),
  };
}

/** The stamps a source's binding modules must carry to be current. */
export interface BindingStamps {
  readonly bindings: string;
  readonly source: string;
}

export function expectedStamps(
  name: string,
  locked: LockedSource,
  config: ResolvedConfig,
  templateText: string,
): BindingStamps {
  const sourceConfig = config.sources[name];
  return {
    bindings: bindingsInputs(name, locked.artifact.digest, config.runtimeImport, templateText),
    // A source that is not in the config (never the case in compile) cannot be reused.
    source: sourceConfig === undefined ? "" : sourceInputs(name, sourceConfig, locked),
  };
}

/**
 * The binding modules on disk when all three carry exactly `stamps` AND are byte for byte what `record`
 * says this compiler last wrote (a stamp alone can be recomputed by whoever edits a file); otherwise
 * undefined, and they are generated again. Without a record nothing is reused.
 */
export async function currentBindings(
  name: string,
  config: ResolvedConfig,
  stamps: BindingStamps,
  record: RecordView | undefined,
): Promise<OutputFile[] | undefined> {
  if (record === undefined) return undefined;
  const paths = bindingPaths(config.outDir, name);
  // A module the record has no entry for is never reused: nothing to read (a cold compile reads nothing).
  if (!record.knows(paths.declarations) || !record.knows(paths.types) || !record.knows(paths.client))
    return undefined;
  const [declarations, types, client] = await Promise.all(
    [paths.declarations, paths.types, paths.client].map((path) => readFile(path).catch(() => undefined)),
  );
  if (declarations === undefined || types === undefined || client === undefined) return undefined;
  if (
    !record.holds(paths.declarations, declarations) ||
    !record.holds(paths.types, types) ||
    !record.holds(paths.client, client)
  )
    return undefined;
  // The record vouches for the bytes (each was stamped with its content digest when written), so only
  // the stamps' inputs are compared here.
  const clientStamp = readStampInputs(client);
  if (clientStamp?.bindings !== stamps.bindings || clientStamp.source !== stamps.source) return undefined;
  if (readStampInputs(types)?.bindings !== stamps.bindings) return undefined;
  if (readStampInputs(declarations)?.bindings !== stamps.bindings) return undefined;
  return [
    fileOnDisk(paths.declarations, declarations),
    fileOnDisk(paths.types, types),
    fileOnDisk(paths.client, client),
  ];
}

/**
 * `currentBindings` answered from the compile cache (the main thread's reuse check, compile.ts): the
 * same conditions, but a module's digest comes from `cache` when its stat identity is unchanged, and
 * its stamp from the cache's record of what bytes with that digest carry. True when all three are current.
 */
export function bindingsCurrentCached(
  name: string,
  config: ResolvedConfig,
  stamps: BindingStamps,
  record: WrittenRecord,
  cache: CompileCache,
): boolean {
  const paths = bindingPaths(config.outDir, name);
  const expected = {
    [paths.declarations]: { bindings: stamps.bindings },
    [paths.types]: { bindings: stamps.bindings },
    [paths.client]: { bindings: stamps.bindings, source: stamps.source },
  };
  for (const [path, want] of Object.entries(expected)) {
    const file = cache.digestOf(path);
    if (file === undefined || record.digestAt(path) !== file.digest) return false;
    let stamp = cache.derivedOf("stamp", file.digest) as Readonly<Record<string, string>> | null | undefined;
    if (stamp === undefined) {
      stamp = readStampInputs(file.bytes ?? readRegularFileSync(path)) ?? null;
      cache.setDerived("stamp", file.digest, stamp);
    }
    if (stamp === null || typeof stamp !== "object") return false;
    if (stamp.bindings !== want.bindings) return false;
    if ("source" in want && stamp.source !== want.source) return false;
  }
  return true;
}

/**
 * `verified`: binding modules already read and verified current (reused sources), by source name.
 * `record`: what this compiler last wrote (see written-record.ts); undefined regenerates everything
 * (`--check` and `--frozen` compare regenerated bytes with the files on disk).
 */
export async function emitBindings(
  sources: readonly CompiledSource[],
  config: ResolvedConfig,
  lock: Lockfile,
  verified: ReadonlyMap<string, readonly OutputFile[]> = new Map(),
  record?: RecordView,
): Promise<OutputFile[]> {
  const templateText = await readTemplateText();
  // Parsed (with ts-morph) only when some source's bindings must actually be generated.
  let template: Promise<ClientTemplate> | undefined;
  const files: OutputFile[] = [];
  for (const source of sources) {
    const locked = lock.sources[source.name];
    if (locked === undefined) throw new TypeError(`emitBindings: source "${source.name}" is not in the lock`);
    const current = verified.get(source.name);
    if (current !== undefined) {
      files.push(...current);
      continue;
    }
    files.push(
      ...(await sourceBindings(
        source,
        locked,
        config,
        templateText,
        () => {
          template ??= parseClientTemplate(templateText);
          return template;
        },
        record,
      )),
    );
  }
  const tools = sources.flatMap((source) =>
    bindingToolsOf(source.tools.map((registered) => registered.tool)),
  );
  files.push(
    indexModule(
      sources.map((source) => source.name),
      config,
      routerBindingsType(tools),
    ),
  );
  return files;
}

/**
 * One source's binding modules: the ones on disk when they are current (see currentBindings),
 * otherwise generated from `source` with the template `template()` gives.
 */
export async function sourceBindings(
  source: CompiledSource,
  locked: LockedSource,
  config: ResolvedConfig,
  templateText: string,
  template: () => Promise<ClientTemplate>,
  record: RecordView | undefined,
): Promise<OutputFile[]> {
  const stamps = expectedStamps(source.name, locked, config, templateText);
  const current = await currentBindings(source.name, config, stamps, record);
  if (current !== undefined) return current;
  return emitSourceBindings(source, config, await template(), stamps);
}

/** `index.ts`: `createClient(router)` over every source's client, and the `RouterBindings` type. */
export function indexModule(
  sources: readonly string[],
  config: Pick<ResolvedConfig, "outDir" | "runtimeImport">,
  routerBindings: readonly string[],
): OutputFile {
  return emitIndex(sources, config.runtimeImport, config.outDir, routerBindings);
}

async function emitSourceBindings(
  source: CompiledSource,
  config: ResolvedConfig,
  template: ClientTemplate,
  stamps: BindingStamps,
): Promise<OutputFile[]> {
  const methods = planMethods(source);
  const types = emitTypes(
    source.artifact.$defs,
    methods.map((m) => ({
      input: m.endpoint.inputSchema,
      output: m.endpoint.outputSchema,
      inputName: `${m.typeBase}Input`,
      outputName: `${m.typeBase}Output`,
    })),
    methods.map((m) => `${m.typeBase}Fields`),
  );
  const paths = bindingPaths(config.outDir, source.name);
  const client = clientModuleBody(
    template,
    source.name,
    methods,
    config.runtimeImport,
    `./${source.name}.types.js`,
  );
  const inputs = { bindings: stamps.bindings };
  return [
    {
      path: paths.declarations,
      contents: stamped(
        inputs,
        asModule(`/* eslint-disable */\n${types}${fieldInterfaces(template, methods)}`),
      ),
    },
    {
      path: paths.types,
      contents: stamped(
        inputs,
        `/** Types of source ${JSON.stringify(source.name)}: its schemas, endpoint inputs/outputs and field paths. */\nexport type * from "./${source.name}.schemas.js";\n`,
      ),
    },
    { path: paths.client, contents: stamped({ ...inputs, source: stamps.source }, client) },
  ];
}

/**
 * A declarations file with nothing to declare (no shared schemas, no endpoints) must still be a module:
 * `<source>.types.ts` re-exports it, and a script file there is TS2306 ("is not a module").
 */
function asModule(body: string): string {
  return /^export /m.test(body) ? body : `${body}export {};\n`;
}

function emitIndex(
  sources: readonly string[],
  runtimeImport: string,
  outDir: string,
  routerBindings: readonly string[],
): OutputFile {
  const imports = sources.map(
    (name) =>
      `import { create${pascalCase(name)}Client, type ${pascalCase(name)}Client } from "./${name}.js";`,
  );
  const members = sources.map((name) => `  readonly ${name}: ${pascalCase(name)}Client;`);
  const builds = sources.map((name) => `    ${name}: create${pascalCase(name)}Client(router),`);
  const contents = [
    GENERATED_HEADER.trimEnd(),
    `import type { BindingOf, SchemaRouter } from ${JSON.stringify(runtimeImport)};`,
    ...imports,
    "",
    "/** One typed client per compiled source; every call crosses the router's fail-closed boundary. */",
    "export interface Client {",
    ...members,
    "}",
    "",
    "export function createClient(router: SchemaRouter): Client {",
    "  return {",
    ...builds,
    "  };",
    "}",
    "",
    ...routerBindings,
    "",
  ].join("\n");
  return { path: join(outDir, "index.ts"), contents };
}
