/**
 * Entry point of `npm run demo` (compiled by examples/tsconfig.json); argv[2] is the OPTIMADE base URL,
 * and the example GraphQL server is started here.
 */
import { join } from "node:path";
import { runAgentDemo } from "./agent/app.js";
import { runGraphqlDemo } from "./graphql/app.js";
import { startGraphqlServer } from "./graphql/server.js";
import { runMemoryDemo } from "./mcp-memory/app.js";
import { runOdataDemo } from "./odata/app.js";
import { runOpenRpcDemo } from "./openrpc/app.js";
import { runOptimadeDemo } from "./optimade/app.js";
import { runPetstoreDemo } from "./petstore/app.js";

const root = process.cwd();
const log = (line: string) => process.stdout.write(`${line}\n`);

log("== Petstore (OpenAPI over HTTP on 127.0.0.1)");
await runPetstoreDemo(root, log);
log("\n== Memory (MCP server-memory over stdio)");
await runMemoryDemo(root, log);
log("\n== Materials (OPTIMADE provider on 127.0.0.1)");
await runOptimadeDemo(root, log, process.argv[2] ?? "http://127.0.0.1:18473");
log("\n== Bookshop (OData v4, SAP CAP on 127.0.0.1)");
await runOdataDemo(root, log);
log("\n== Library (GraphQL over graphql-http on 127.0.0.1)");
const library = await startGraphqlServer(join(root, "examples", "graphql", "library.graphql"));
try {
  await runGraphqlDemo(root, log, library.url, () => library.requests.at(-1)?.query);
} finally {
  await library.close();
}
log("\n== Math (OpenRPC: @open-rpc/server-js on 127.0.0.1)");
await runOpenRpcDemo(root, log);
log("\n== Agent (AI SDK generateText, scripted model, Petstore tools)");
await runAgentDemo(root, log);
