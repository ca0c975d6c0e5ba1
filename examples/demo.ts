/** Entry point of `npm run demo` (compiled by examples/tsconfig.json). */
import { runPetstoreDemo } from "./petstore/app.js";

const root = process.cwd();
const log = (line: string) => process.stdout.write(`${line}\n`);

log("== Petstore (OpenAPI over HTTP on 127.0.0.1)");
await runPetstoreDemo(root, log);
