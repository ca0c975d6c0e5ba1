/**
 * Where the benchmarks find the built package and the peers. `SCHEMAROUTER_BENCH_ROOT` points at
 * another built checkout of the repository (runtime/dist and compiler/dist present).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const PACKAGE = resolve(process.env.SCHEMAROUTER_BENCH_ROOT ?? REPO);
export const BIN = join(PACKAGE, "compiler/dist/cli/bin.js");
export const RUNTIME = join(PACKAGE, "runtime/dist/index.js");

const require = createRequire(join(REPO, "package.json"));

/** Absolute path of a package's bin script, read from its package.json. */
function binOf(pkg, name = pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin[name];
  return join(dirname(manifestPath), bin);
}

export function versionOf(pkg) {
  return JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")).version;
}

export const GITHUB_DOCUMENT = join(
  dirname(require.resolve("@octokit/openapi/package.json")),
  "generated/api.github.com.json",
);

export const PEERS = {
  openapiTypescript: binOf("openapi-typescript"),
  tsc: binOf("typescript", "tsc"),
};
