/**
 * Package hygiene: the import rule (runtime never imports the compiler or heavy optional packages at
 * module level), the published config schema, versions, and the repository's own lock being current.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CONFIG_SCHEMA } from "../../compiler/config/schema.js";
import { COMPILER_VERSION } from "../../compiler/emit/version.js";
import { COMPILER_ERROR_CODES } from "../../compiler/errors/errors.js";
import { renderErrorReference } from "../../compiler/errors/reference.js";
import { startDemoProvider } from "../../examples/optimade/provider.js";
import { ERROR_CODES } from "../../runtime/errors/errors.js";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/project.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const BUILD_TIME = [
  "ts-morph",
  "json-schema-to-typescript",
  "@apidevtools/json-schema-ref-parser",
  "commander",
  "yaml",
  "@openapi-contrib/openapi-schema-to-json-schema",
];
const LAZY_ONLY = [
  "@modelcontextprotocol/sdk",
  "better-sqlite3",
  "@opentelemetry/api",
  "ai",
  "@openai/agents-core",
  "@openai/agents",
  "@langchain/core",
  "openai",
  "@anthropic-ai/sdk",
  "pg",
];

describe("package", () => {
  it("runtime/ never imports compiler/ or build-time packages, and loads optional packages lazily", () => {
    const offenders: string[] = [];
    for (const file of sources(join(REPO_ROOT, "runtime"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gm)) {
        const [, , typeOnly, specifier] = match;
        const where = `${relative(REPO_ROOT, file)} → ${specifier}`;
        if (specifier!.includes("/compiler/") || specifier!.startsWith("../../compiler"))
          offenders.push(where);
        if (BUILD_TIME.some((pkg) => specifier === pkg || specifier!.startsWith(`${pkg}/`)))
          offenders.push(where);
        if (!typeOnly && LAZY_ONLY.some((pkg) => specifier === pkg || specifier!.startsWith(`${pkg}/`)))
          offenders.push(`${where} (must be lazy)`);
      }
      for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
        if (BUILD_TIME.includes(match[1]!))
          offenders.push(`${relative(REPO_ROOT, file)} → import(${match[1]})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("links the error-code reference from the README", () => {
    // docs/reference/error-codes.md is generated from the error-code table, and its own test keeps it
    // current code by code; the README must lead to it.
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/\]\(docs\/reference\/error-codes\.md\)/);
  });

  it("documents every stable error code: docs/reference/error-codes.md is generated from the tables", () => {
    const page = readFileSync(join(REPO_ROOT, "docs/reference/error-codes.md"), "utf8");
    // Stale? Run `npm run docs:errors` and review the diff (codes are public API: never renamed).
    expect(page).toBe(renderErrorReference());
    const codes = [...Object.keys(ERROR_CODES), ...Object.keys(COMPILER_ERROR_CODES)];
    expect(codes.filter((code) => !page.includes(`#### \`${code}\``))).toEqual([]);
  });

  it("publishes the config JSON Schema exactly as the compiler validates it", () => {
    const published = JSON.parse(readFileSync(join(REPO_ROOT, "schemarouter.config.schema.json"), "utf8"));
    expect(published).toEqual(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
  });

  it("records the package version in artifacts", () => {
    const manifest = (dir: string) => JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8"));
    const runtime = manifest("runtime");
    const compiler = manifest("compiler");
    expect(COMPILER_VERSION).toBe(compiler.version);
    // The compiler pins the runtime exactly: it builds on schemarouter/internal, which has no semver promise.
    expect(compiler.dependencies.schemarouter).toBe(runtime.version);
    // undici 7.30 needs Node.js 20.18.1; both packages say so.
    expect(runtime.engines.node).toBe(">=20.18.1");
    expect(compiler.engines.node).toBe(">=20.18.1");
    expect(Object.keys(runtime.exports)).toEqual([
      ".",
      "./bindings",
      "./format",
      "./postgres",
      "./traces",
      "./transports",
      "./agents",
      "./serve",
      "./internal",
      "./package.json",
    ]);
    expect(Object.keys(compiler.exports)).toEqual([".", "./config.schema.json", "./package.json"]);
    expect(compiler.bin).toEqual({ schemarouter: "./dist/cli/bin.js" });
  });

  it("the repository's own lockfile and generated example bindings are current", async () => {
    // The root config's OPTIMADE example provider runs on a fixed loopback port (see examples/optimade).
    const provider = await startDemoProvider();
    onTestFinished(() => provider.close());
    const { code, stdout } = await runCli(REPO_ROOT, ["compile", "--check"], process.env);
    expect(stdout).toContain("Up to date.");
    expect(code).toBe(0);
  });
});
