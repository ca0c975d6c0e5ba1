/**
 * The MCP example: the published @modelcontextprotocol/server-memory over stdio, compiled and locked
 * by the root config. Reads run; writes need local opt-in; tools nobody classified stay blocked.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BindingConfig, ExecutionPolicy, isSchemaRouterError, SchemaRouter } from "schemarouter";
import { createClient } from "../generated/index.js";

export async function runMemoryDemo(root: string, log: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "schemarouter-memory-"));
  // Trusted local configuration: the locked command, and exactly the environment the server gets.
  const memory: BindingConfig = {
    mcp: {
      stdio: {
        command: "node",
        args: ["node_modules/@modelcontextprotocol/server-memory/dist/index.js"],
        env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
        stderr: "ignore",
      },
    },
  };
  const readOnly = await SchemaRouter.load({ root, bindings: { memory } });
  const writer = await SchemaRouter.load({
    root,
    bindings: { memory },
    policy: new ExecutionPolicy({ allowMutations: true }),
  });
  try {
    const refused = async (what: string, call: () => Promise<unknown>) => {
      try {
        await call();
        log(`${what} → unexpectedly allowed`);
      } catch (error) {
        if (!isSchemaRouterError(error)) throw error;
        log(`${what} → refused: ${error.code}`);
      }
    };
    const entities = [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }];
    await refused("create_entities (write, default policy)", () =>
      createClient(readOnly).memory.createEntities({ entities }),
    );
    await createClient(writer).memory.createEntities({ entities });
    log("create_entities (write, allowMutations) → ok");
    const graph = await createClient(readOnly).memory.readGraph(
      {},
      { fields: ["entities[].name", "entities[].entityType"] },
    );
    log(`read_graph → ${JSON.stringify(graph.data)}`);
    await refused("delete_entities (unclassified remote)", () =>
      createClient(writer).memory.deleteEntities({ entityNames: ["Ada"] }),
    );
  } finally {
    await readOnly.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
