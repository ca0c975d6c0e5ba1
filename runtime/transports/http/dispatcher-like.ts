/**
 * The public type of a custom HTTP dispatcher option: an undici `Dispatcher` (e.g. an `Agent`, a
 * `ProxyAgent` or a `MockAgent`), named structurally so the runtime's declarations do not pull
 * undici's (and @types/node's) types into every consumer's type-check.
 */

/** An undici `Dispatcher` instance (e.g. `new Agent({ ... })`); trusted local code only. */
export type DispatcherLike = object;
