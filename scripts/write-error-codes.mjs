// Writes docs/reference/error-codes.md from the built error tables (runtime/errors/registry.ts and
// compiler/errors/registry.ts, rendered by compiler/errors/reference.ts). `--check` writes nothing and
// exits 1 when the page is stale. Run through `npm run docs:errors`, which builds first.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { renderErrorReference } from "../compiler/dist/errors/reference.js";

const target = new URL("../docs/reference/error-codes.md", import.meta.url);
const page = renderErrorReference();

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== page) {
    process.stderr.write("docs/reference/error-codes.md is stale; run `npm run docs:errors`.\n");
    process.exit(1);
  }
} else {
  mkdirSync(new URL(".", target), { recursive: true });
  writeFileSync(target, page);
}
