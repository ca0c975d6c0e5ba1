/**
 * schemarouter/bindings — what generated typed bindings build on: endpoint pins, call options and the
 * type-level field projection (docs/runtime/bindings.md). The root export re-exports the same names,
 * because generated modules import `schemarouter` by default.
 */
export {
  bindClient,
  type CallOptions,
  type EndpointPin,
  type Projected,
  type ProjectPaths,
  type TypedResult,
} from "./typed-client.js";
