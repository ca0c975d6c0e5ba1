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
import type { ResolvedConfig } from "../config/config.js";
import { clientModuleBody, fieldInterfaces } from "./client.js";
import { bindingsInputs, sourceInputs } from "./inputs.js";
import type { CompiledSource } from "./lockfile.js";
import { pascalCase } from "./names.js";
import { planMethods } from "./plan.js";
import { GENERATED_HEADER, readStamp, stamped } from "./stamp.js";
import { type ClientTemplate, parseClientTemplate, readTemplateText } from "./template.js";
import { emitTypes } from "./types.js";
import { fileOnDisk, type OutputFile } from "./write.js";

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
 * The binding modules on disk when both carry exactly `stamps` (and were not edited); otherwise
 * undefined.
 */
export async function currentBindings(
  name: string,
  config: ResolvedConfig,
  stamps: BindingStamps,
): Promise<OutputFile[] | undefined> {
  const paths = bindingPaths(config.outDir, name);
  const [declarations, types, client] = await Promise.all(
    [paths.declarations, paths.types, paths.client].map((path) => readFile(path).catch(() => undefined)),
  );
  if (declarations === undefined || types === undefined || client === undefined) return undefined;
  const clientStamp = readStamp(client);
  if (clientStamp?.bindings !== stamps.bindings || clientStamp.source !== stamps.source) return undefined;
  if (readStamp(types)?.bindings !== stamps.bindings) return undefined;
  if (readStamp(declarations)?.bindings !== stamps.bindings) return undefined;
  return [
    fileOnDisk(paths.declarations, declarations),
    fileOnDisk(paths.types, types),
    fileOnDisk(paths.client, client),
  ];
}

/**
 * `verified`: binding modules already read and verified current (reused sources), by source name.
 */
export async function emitBindings(
  sources: readonly CompiledSource[],
  config: ResolvedConfig,
  lock: Lockfile,
  verified: ReadonlyMap<string, readonly OutputFile[]> = new Map(),
): Promise<OutputFile[]> {
  const templateText = await readTemplateText();
  // Parsed (with ts-morph) only when some source's bindings must actually be generated.
  let template: Promise<ClientTemplate> | undefined;
  const files: OutputFile[] = [];
  for (const source of sources) {
    const locked = lock.sources[source.name];
    if (locked === undefined) throw new TypeError(`emitBindings: source "${source.name}" is not in the lock`);
    const stamps = expectedStamps(source.name, locked, config, templateText);
    const current = verified.get(source.name) ?? (await currentBindings(source.name, config, stamps));
    if (current !== undefined) {
      files.push(...current);
      continue;
    }
    template ??= parseClientTemplate(templateText);
    files.push(...(await emitSourceBindings(source, config, await template, stamps)));
  }
  files.push(
    emitIndex(
      sources.map((s) => s.name),
      config.runtimeImport,
      config.outDir,
    ),
  );
  return files;
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
      contents: stamped(inputs, `/* eslint-disable */\n${types}${fieldInterfaces(template, methods)}`),
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

function emitIndex(sources: readonly string[], runtimeImport: string, outDir: string): OutputFile {
  const imports = sources.map(
    (name) =>
      `import { create${pascalCase(name)}Client, type ${pascalCase(name)}Client } from "./${name}.js";`,
  );
  const members = sources.map((name) => `  readonly ${name}: ${pascalCase(name)}Client;`);
  const builds = sources.map((name) => `    ${name}: create${pascalCase(name)}Client(router),`);
  const contents = [
    GENERATED_HEADER.trimEnd(),
    `import type { SchemaRouter } from ${JSON.stringify(runtimeImport)};`,
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
  ].join("\n");
  return { path: join(outDir, "index.ts"), contents };
}
