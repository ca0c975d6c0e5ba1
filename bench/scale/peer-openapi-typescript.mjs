/**
 * The peer of the scale compile benchmark (docs/benchmarks.md, "Scale: compile"): openapi-typescript
 * (its Node API, one process, documents one after another, as its CLI does per document) generating
 * types for every document listed in a JSON file, each written to <out>/<n>.d.ts. A document it
 * cannot handle is counted (and its first error line kept), never fatal.
 *
 *   node bench/scale/peer-openapi-typescript.mjs <documents.json> <out-dir> <summary.json>
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const [listFile, outDir, summaryFile] = process.argv.slice(2);
const documents = JSON.parse(readFileSync(listFile, "utf8"));
mkdirSync(outDir, { recursive: true });
const failed = [];
let bytes = 0;
for (const [index, path] of documents.entries()) {
  try {
    const text = astToString(await openapiTS(pathToFileURL(path), { silent: true }));
    writeFileSync(join(outDir, `${index}.d.ts`), text);
    bytes += Buffer.byteLength(text);
  } catch (error) {
    failed.push({ path, error: String(error?.message ?? error).split("\n")[0] });
  }
}
writeFileSync(
  summaryFile,
  JSON.stringify({ documents: documents.length, generated: documents.length - failed.length, bytes, failed }),
);
