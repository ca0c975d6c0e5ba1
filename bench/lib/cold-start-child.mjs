/**
 * One cold start, in a fresh process: import the runtime, then `SchemaRouter.load()` (reads the
 * lockfile, verifies the artifact digests, the layout and every tool fingerprint; each endpoint is
 * verified on first use). Prints timings as JSON.
 *
 * With `first-use` as the third argument, also times what pays for the endpoints' parsing and
 * verification after the load: the first governed call (`meta/root`, through a trusted in-process
 * invoker, so no network is involved), then the first retrieval (which ranks, hence verifies,
 * every endpoint). Kept out of the plain run so its peak RSS is the load's alone. With `full`, the load
 * itself verifies every endpoint (`verify: "full"`).
 */
import { pathToFileURL } from "node:url";

const [runtime, root, mode] = process.argv.slice(2);
const started = performance.now();
const { SchemaRouter } = await import(pathToFileURL(runtime).href);
const imported = performance.now();
let router;
// meta/root returns an object of URL templates: answer with the required ones.
const invoker = {
  invoke: async () => {
    const schema = router.registry.effectiveSchema("github", "meta/root", "output");
    const root = schema.$defs[schema.$ref.slice("#/$defs/".length)];
    return Object.fromEntries(root.required.map((key) => [key, `https://api.github.com/${key}`]));
  },
};
router = await SchemaRouter.load({
  root,
  bindings: { github: { invoker } },
  ...(mode === "full" ? { verify: "full" } : {}),
});
const loaded = performance.now();
const endpoints = router.registry.entries().length;
const out = {
  importMs: imported - started,
  loadMs: loaded - imported,
  endpoints,
  heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
};
if (mode === "first-use") {
  const registered = router.registry.get("github");
  const before = performance.now();
  await router.call({
    tool: "github",
    endpoint: "meta/root",
    arguments: {},
    endpointFingerprint: registered.endpointFingerprints.get("meta/root"),
    toolFingerprint: registered.fingerprint,
  });
  const called = performance.now();
  router.retrieve({ query: "star a repository" }, { k: 5 });
  out.firstCallMs = called - before;
  out.firstRetrieveMs = performance.now() - called;
}
await router.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
