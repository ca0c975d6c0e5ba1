// Builds the compiler package (compiler/dist): the runtime first when its declarations are missing (the
// compiler type-checks against the runtime as published), then tsc, the bindings template, the config
// schema and its precompiled validator (scripts/write-config-schema.mjs).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const at = (path) => `${root}${path}`;
const tsc = at("node_modules/typescript/bin/tsc");
const run = (...args) => execFileSync(process.execPath, args, { stdio: "inherit", cwd: root });

if (!existsSync(at("runtime/dist/index.d.ts"))) run(tsc, "-p", "runtime/tsconfig.build.json");
rmSync(at("compiler/dist"), { recursive: true, force: true });
run(tsc, "-p", "compiler/tsconfig.build.json");
mkdirSync(at("compiler/dist/templates"), { recursive: true });
copyFileSync(at("templates/source-client.ts"), at("compiler/dist/templates/source-client.ts"));
run(at("scripts/write-config-schema.mjs"));
copyFileSync(at("schemarouter.config.schema.json"), at("compiler/dist/schemarouter.config.schema.json"));
