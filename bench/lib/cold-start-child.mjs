/**
 * One cold start, in a fresh process: import the runtime, then `SchemaRouter.load()` (reads the
 * lockfile, verifies every artifact digest and recomputes every fingerprint). Prints timings as JSON.
 */
import { pathToFileURL } from "node:url";

const [runtime, root] = process.argv.slice(2);
const started = performance.now();
const { SchemaRouter } = await import(pathToFileURL(runtime).href);
const imported = performance.now();
const router = await SchemaRouter.load({ root });
const loaded = performance.now();
const endpoints = router.registry.entries().length;
await router.close();
process.stdout.write(
  `${JSON.stringify({
    importMs: imported - started,
    loadMs: loaded - imported,
    endpoints,
    heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
  })}\n`,
);
