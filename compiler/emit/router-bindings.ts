/**
 * The `RouterBindings` type of a project's generated index (docs/runtime/bindings.md): one optional key
 * per locked remote tool (the source name), typed with its transport's binding shape, so
 * `SchemaRouter.load<RouterBindings>({ bindings })` refuses a misspelt source or binding key at
 * compile time. Local tools are bound through `local` and have no key.
 */
import type { ToolSpec } from "schemarouter/internal";

type Transport = ToolSpec["execution"]["transport"];

/** What the `RouterBindings` type needs of a tool: its name and transport. */
export interface BindingTool {
  readonly name: string;
  readonly transport: Transport;
}

export function bindingToolsOf(tools: readonly Pick<ToolSpec, "name" | "execution">[]): BindingTool[] {
  return tools.map((tool) => ({ name: tool.name, transport: tool.execution.transport }));
}

/** The `BindingOf<…>` argument per transport; null: not bound through `bindings`. */
const SHAPE: Readonly<Record<Transport, string | null>> = {
  http: '"http"',
  mcp: '"mcp"',
  optimade: '"optimade"',
  odata: '"odata"',
  graphql: '"graphql"',
  openrpc: '"openrpc"',
  local: null,
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The lines of the `RouterBindings` type alias (an alias, so it fits `Record<string, BindingConfig>`). */
export function routerBindingsType(tools: readonly BindingTool[]): string[] {
  const members: string[] = [];
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const shape = SHAPE[tool.transport];
    if (shape === null) continue;
    const key = IDENTIFIER.test(tool.name) ? tool.name : JSON.stringify(tool.name);
    members.push(`  readonly ${key}?: BindingOf<${shape}>;`);
  }
  return [
    "/**",
    " * The trusted bindings of this project: one key per remote source, in its transport's binding shape.",
    " * `SchemaRouter.load<RouterBindings>({ bindings })` refuses a misspelt source or key at compile time.",
    " */",
    ...(members.length === 0
      ? ["export type RouterBindings = { readonly [tool: string]: never };"]
      : ["export type RouterBindings = {", ...members, "};"]),
  ];
}
