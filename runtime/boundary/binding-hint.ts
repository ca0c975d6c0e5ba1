/**
 * What to pass to SchemaRouter.load() for a tool that has no binding, in the shape of the locked tool's
 * transport (docs/common-mistakes.md): an MCP tool is shown an MCP binding, never an HTTP one.
 */
import type { ToolExecution } from "../model/specs.js";

type Transport = ToolExecution["transport"];

type Hint<K extends Transport> = (
  tool: string,
  source: string,
  execution: Extract<ToolExecution, { transport: K }>,
) => string;

const HINTS: { readonly [K in Transport]: Hint<K> } = {
  http: (tool) =>
    `Pass bindings: { ${tool}: { baseUrl: "https://api.example.com", headers: { … } } } to SchemaRouter.load().`,
  mcp: (tool, _source, execution) =>
    execution.server === "stdio"
      ? `Pass bindings: { ${tool}: { mcp: { stdio: { command, args, env } } } } to SchemaRouter.load(), for the locked server \`${execution.identity}\`.`
      : `Pass bindings: { ${tool}: { mcp: { url: ${JSON.stringify(execution.identity)}, headers: { … } } } } to SchemaRouter.load().`,
  optimade: (tool) =>
    `Pass bindings: { ${tool}: { optimade: { … } } } to SchemaRouter.load() (the base URL defaults to the locked one).`,
  odata: (tool) =>
    `Pass bindings: { ${tool}: { odata: { headers: { … } } } } to SchemaRouter.load() (the service root defaults to the locked one).`,
  graphql: (tool, _source, execution) =>
    execution.url === undefined
      ? `Pass bindings: { ${tool}: { graphql: { url: "https://…/graphql", headers: { … } } } } to SchemaRouter.load() (a source compiled from an SDL file needs the endpoint URL).`
      : `Pass bindings: { ${tool}: { graphql: { headers: { … } } } } to SchemaRouter.load() (the endpoint defaults to the locked one).`,
  openrpc: (tool) =>
    `Pass bindings: { ${tool}: { openrpc: { headers: { … } } } } to SchemaRouter.load() (the JSON-RPC endpoint defaults to the locked one).`,
  local: (_tool, source) =>
    `Pass local: { ${source}: <the defineLocalTool() definition the config compiles> } to SchemaRouter.load().`,
};

/** The sentence telling the user which binding a tool needs. */
export function missingBindingHint(tool: string, source: string, execution: ToolExecution): string {
  const hint = HINTS[execution.transport] as Hint<Transport>;
  return hint(tool, source, execution as never);
}
