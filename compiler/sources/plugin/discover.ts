/**
 * Plugin discovery without import (docs/plugins.md, "Discovery"): reads `package.json` files under the
 * project's `node_modules` (and one level of `@scope/`) and keeps those declaring
 * `"schemarouter": { "plugin": { "kind", "entry" } }`. Nothing is imported or executed here.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";

const MAX_PACKAGES = 10_000;
const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface DiscoveredPlugin {
  readonly package: string;
  readonly version: string;
  readonly kind: string;
  /** The entry module, resolved inside the package directory. */
  readonly entry: string;
  readonly dir: string;
  /** Set when the metadata is unusable; such a plugin is listed but never loaded. */
  readonly problem?: string;
}

export async function discoverPlugins(cwd: string): Promise<DiscoveredPlugin[]> {
  const root = join(cwd, "node_modules");
  const dirs: string[] = [];
  for (const name of await list(root)) {
    if (name.startsWith(".")) continue;
    if (name.startsWith("@"))
      for (const inner of await list(join(root, name))) dirs.push(join(root, name, inner));
    else dirs.push(join(root, name));
    if (dirs.length > MAX_PACKAGES) break;
  }
  const found: DiscoveredPlugin[] = [];
  for (const dir of dirs.slice(0, MAX_PACKAGES)) {
    const manifest = await readManifest(join(dir, "package.json"));
    if (manifest === undefined) continue;
    const plugin = (manifest.schemarouter as { plugin?: unknown } | undefined)?.plugin;
    if (plugin === undefined) continue;
    const name = typeof manifest.name === "string" ? manifest.name : relative(root, dir).split(sep).join("/");
    const version = typeof manifest.version === "string" ? manifest.version : "";
    const meta = (typeof plugin === "object" && plugin !== null ? plugin : {}) as {
      kind?: unknown;
      entry?: unknown;
    };
    const kind = typeof meta.kind === "string" ? meta.kind : "";
    const entry = typeof meta.entry === "string" ? resolve(dir, meta.entry) : dir;
    const problem =
      kind === "" || !/^[a-z][a-z0-9-]*$/.test(kind)
        ? 'schemarouter.plugin.kind must be a lower-case name (e.g. "jsonhttp")'
        : typeof meta.entry !== "string"
          ? "schemarouter.plugin.entry must name the module, e.g. ./index.mjs"
          : !entry.startsWith(`${dir}${sep}`)
            ? "schemarouter.plugin.entry points outside the package"
            : undefined;
    found.push({ package: name, version, kind, entry, dir, ...(problem !== undefined ? { problem } : {}) });
  }
  return found.sort((a, b) => (a.package < b.package ? -1 : a.package > b.package ? 1 : 0));
}

async function list(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function readManifest(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    if ((await stat(path)).size > MAX_MANIFEST_BYTES) return undefined;
    const value: unknown = JSON.parse(await readFile(path, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
