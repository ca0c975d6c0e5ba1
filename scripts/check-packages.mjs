// `npm run check:package`: what CI checks of the two published packages (docs/development.md).
// 1. publint (strict) and Are the Types Wrong on both package folders;
// 2. `npm pack` of both (their `prepack` builds them);
// 3. the runtime tarball ALONE installed into an empty folder: no build-time package is there, it imports,
//    and it loads this repository's lockfile and example artifacts with the compiler absent; without the
//    optional peer pg, schemarouter/postgres refuses with OPTIONAL_DEPENDENCY_MISSING naming it; prints the
//    installed size, file count and the cold `import("schemarouter")` time;
// 4. the compiler tarball (with the runtime tarball) installed into another empty folder: its bin compiles
//    the Petstore example into artifacts, a lockfile and bindings.
// Installs use the npm registry for the packages' own dependencies.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAX_RUNTIME_BYTES = 10 * 1024 * 1024;
/** Build-time packages a production install of the runtime must never contain. */
const BUILD_TIME = [
  "@schemarouter/compiler",
  "typescript",
  "ts-morph",
  "commander",
  "yaml",
  "prettier",
  "lodash",
  "openapi-typescript",
  "@apidevtools/json-schema-ref-parser",
  "@openapi-contrib/openapi-schema-to-json-schema",
];

const run = (command, args, cwd = ROOT) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
const npm = (args, cwd) => run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], cwd);
const bin = (name) => join(ROOT, "node_modules", ".bin", name);

function sizeOf(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(path);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += statSync(path).size;
      files += 1;
    }
  }
  return { bytes, files };
}

function fail(message) {
  console.error(`check:package: ${message}`);
  process.exit(1);
}

// 1. Static package checks.
for (const dir of ["runtime", "compiler"]) {
  run(bin("publint"), [dir, "--strict"]);
  run(bin("attw"), ["--pack", dir, "--profile", "esm-only", "--format", "ascii"]);
}

// 2. Pack both (prepack builds each package).
const work = mkdtempSync(join(tmpdir(), "schemarouter-packages-"));
try {
  const packed = JSON.parse(
    npm(["pack", "-w", "schemarouter", "-w", "@schemarouter/compiler", "--pack-destination", work, "--json"]),
  );
  const tarball = (name) => join(work, packed.find((entry) => entry.name === name).filename);

  // 3. The runtime alone.
  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  npm(["install", tarball("schemarouter")], app);
  const present = BUILD_TIME.filter((name) => {
    try {
      return statSync(join(app, "node_modules", name)).isDirectory();
    } catch {
      return false;
    }
  });
  if (present.length > 0) fail(`the runtime's production install contains build-time packages: ${present}`);
  const installed = sizeOf(join(app, "node_modules"));
  if (installed.bytes > MAX_RUNTIME_BYTES)
    fail(`the runtime's production install is ${installed.bytes} bytes (limit ${MAX_RUNTIME_BYTES})`);
  // The repository's own lock and the artifacts and retrieval index it pins, loaded by the installed
  // runtime.
  cpSync(join(ROOT, "schemarouter.lock.json"), join(app, "schemarouter.lock.json"));
  cpSync(join(ROOT, "examples/generated/artifacts"), join(app, "examples/generated/artifacts"), {
    recursive: true,
  });
  cpSync(
    join(ROOT, "examples/generated/retrieval-index.bin"),
    join(app, "examples/generated/retrieval-index.bin"),
  );
  const loaded = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { SchemaRouter } = await import("schemarouter");
       const router = await SchemaRouter.load({ root: process.cwd(), verify: "full" });
       const routes = router.registry.entries().map((e) => e.tool.name + "." + e.endpoint.name);
       await router.close();
       console.log(JSON.stringify(routes));`,
    ],
    app,
  );
  const routes = JSON.parse(loaded);
  if (!routes.includes("petstore.getPetById")) fail(`the installed runtime loaded ${loaded}`);
  // Optional peers are not installed with the runtime: the PostgreSQL backend names the one it needs.
  const missingPeer = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { connectPostgres } = await import("schemarouter/postgres");
       const error = await connectPostgres({ url: "postgres://app@127.0.0.1:1/app" }).catch((e) => e);
       console.log(JSON.stringify({ code: error.code, dependency: error.details?.dependency }));`,
    ],
    app,
  );
  if (missingPeer.trim() !== JSON.stringify({ code: "OPTIONAL_DEPENDENCY_MISSING", dependency: "pg" }))
    fail(`schemarouter/postgres without pg answered ${missingPeer}`);
  const importTimes = [];
  for (let index = 0; index < 7; index++) {
    const out = run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const t = performance.now(); await import("schemarouter"); console.log(performance.now() - t);`,
      ],
      app,
    );
    importTimes.push(Number(out));
  }
  importTimes.sort((a, b) => a - b);
  console.log(
    `runtime install: ${(installed.bytes / 1024 / 1024).toFixed(1)} MB, ${installed.files} files, ` +
      `${readdirSync(join(app, "node_modules")).length} top-level packages; ` +
      `cold import("schemarouter") median ${importTimes[3].toFixed(1)} ms; loaded ${routes.length} endpoints ` +
      "without the compiler",
  );

  // 4. The compiler, with the runtime from its tarball.
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "project", private: true, type: "module" }),
  );
  npm(["install", tarball("schemarouter"), tarball("@schemarouter/compiler")], project);
  cpSync(join(ROOT, "examples/petstore/openapi.yaml"), join(project, "openapi.yaml"));
  const schemarouter = join(project, "node_modules", ".bin", "schemarouter");
  run(schemarouter, ["init"], project);
  run(schemarouter, ["add", "openapi", "petstore", "openapi.yaml"], project);
  run(schemarouter, ["compile"], project);
  run(schemarouter, ["compile", "--check"], project);
  const compiled = readdirSync(join(project, "schemarouter"));
  console.log(`compiler install: compiled the Petstore example into schemarouter/ (${compiled.join(", ")})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
