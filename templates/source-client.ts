/**
 * Template of one generated source module. The emitter (compiler/emit/bindings.ts) reads this file
 * with ts-morph and stamps out one pin, one field-path interface and one client method per endpoint.
 * Identifiers starting with `__` are placeholders; the runtime import is replaced by the configured
 * `runtimeImport` (default "schemarouter"). It is type-checked with the rest of the repository.
 */
import {
  bindClient,
  type CallOptions,
  type Projected,
  type SchemaRouter,
  type TypedResult,
} from "../runtime/index.js";

type __Input = { readonly __parameter?: string };
type __Output = { readonly __field?: string };

export const pins = {
  __method: {
    tool: "__tool",
    endpoint: "__endpoint",
    endpointFingerprint: "sha256:",
    toolFingerprint: "sha256:",
  },
} as const;

export interface __Fields {
  readonly __field: readonly ["__field"];
}

export type __Field = keyof __Fields;

export interface __Client {
  /** __description */
  __method<const F extends __Field = __Field>(
    args: __Input,
    options?: CallOptions<F>,
  ): Promise<TypedResult<Projected<__Output, __Fields, F>>>;
}

export function __createClient(router: SchemaRouter): __Client {
  return bindClient(router, pins) as unknown as __Client;
}
