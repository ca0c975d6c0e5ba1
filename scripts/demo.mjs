// `npm run demo`: start the example OPTIMADE provider, OData service and JSON-RPC server (the demo starts the GraphQL server itself), compile the examples with the built CLI,
// type-check and build the example apps against the generated bindings, then run governed calls.
import { spawn } from "node:child_process";

/** Runs a node script to completion without blocking this process (the provider serves meanwhile). */
function node(...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`node ${args.join(" ")} exited with ${code ?? signal}`)),
    );
  });
}

const tsc = () => node("node_modules/typescript/bin/tsc", "-p", "examples/tsconfig.json");

await tsc(); // builds the provider fixture and the apps (against the committed bindings)
const { startDemoProvider } = await import("../examples/.build/examples/optimade/provider.js");
const provider = await startDemoProvider();
const { startDemoService } = await import("../examples/.build/examples/odata/server.js");
const bookshop = await startDemoService();
const { startDemoMathServer } = await import("../examples/.build/examples/openrpc/server.js");
const math = await startDemoMathServer("examples/openrpc/simple-math.json");
try {
  await node("compiler/dist/cli/bin.js", "compile");
  await tsc(); // again, in case compile regenerated bindings
  await node("examples/.build/examples/demo.js", provider.baseUrl);
} finally {
  await math.close();
  await bookshop.close();
  await provider.close();
}
