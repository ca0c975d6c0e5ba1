// `npm run demo`: compile the examples with the built CLI, type-check and build the example apps
// against the generated bindings, then run governed calls end to end.
import { execFileSync } from "node:child_process";

const run = (command, args) => execFileSync(command, args, { stdio: "inherit" });

run(process.execPath, ["dist/compiler/bin.js", "compile"]);
run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "examples/tsconfig.json"]);
run(process.execPath, ["examples/.build/demo.js"]);
