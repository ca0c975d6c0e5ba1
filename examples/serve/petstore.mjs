// The example's upstream: the Petstore server of examples/petstore on the port the serve binding
// names (127.0.0.1:18474), requiring the bearer token in PETSTORE_TOKEN (default "demo-token").
// Run it next to `schemarouter serve`: `node examples/serve/petstore.mjs`.
import { startPetstoreServer } from "../petstore/server.mjs";

const server = await startPetstoreServer({ port: 18474, token: process.env.PETSTORE_TOKEN ?? "demo-token" });
process.stderr.write(`Petstore at ${server.url} (Ctrl-C stops it)\n`);
const stop = () => server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
