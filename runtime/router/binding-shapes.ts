/**
 * The binding shape of each remote transport, for the `RouterBindings` type the compiler generates per
 * project (docs/runtime/bindings.md): `BindingOf<"http">` is an HTTP binding or a trusted invoker.
 */
import type { Invoker } from "../boundary/invoker.js";
import type { HttpBindingOptions } from "../transports/http/transport.js";
import type {
  GraphqlBindingOptions,
  McpBindingOptions,
  OdataBindingOptions,
  OpenRpcBindingOptions,
  OptimadeBindingOptions,
} from "./router.js";

/** Binding options by the locked tool's transport. Local tools are bound through `local`, not here. */
export interface BindingShapes {
  readonly http: HttpBindingOptions;
  readonly mcp: McpBindingOptions;
  readonly optimade: OptimadeBindingOptions;
  readonly odata: OdataBindingOptions;
  readonly graphql: GraphqlBindingOptions;
  readonly openrpc: OpenRpcBindingOptions;
}

/** What `bindings.<tool>` takes for a tool of transport `T`: its options, or a trusted invoker. */
export type BindingOf<T extends keyof BindingShapes> = BindingShapes[T] | { readonly invoker: Invoker };
