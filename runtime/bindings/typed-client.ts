/**
 * The typed-binding support that generated code imports: pins, call options, and the type-level
 * projection that narrows a result to exactly the selected fields (nested paths keep their object
 * shape, `*` segments keep arrays of records).
 */
import type { RunConfig } from "../governed/config.js";
import type { ToolResult } from "../model/specs.js";
import type { SchemaRouter } from "../router/router.js";

/** The contract a generated binding was generated from. */
export interface EndpointPin {
  readonly tool: string;
  readonly endpoint: string;
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
}

/**
 * The options of one typed call: the fields to return, and the run options `router.invoke` takes for a
 * run of one call — `retry`, `budget`, `sharedBudget`, `tags`, `metadata`, `runId`, `signal`,
 * `includePayloads`, `traceStore` (docs/runtime/bindings.md). `mode` and `concurrency` shape runs of
 * many calls, so a single call has neither.
 */
export interface CallOptions<F extends string> extends Omit<RunConfig, "mode" | "concurrency"> {
  /** Logical field IDs to return; omitted = every declared field. */
  readonly fields?: readonly F[];
}

/** The first segments of a union of paths. */
type Heads<P> = P extends readonly [infer H, ...unknown[]] ? H : never;
/** The remaining segments of the paths of union `P` that start with `H`. */
type Tails<P, H> = P extends readonly [infer Head, ...infer R] ? (Head extends H ? R : never) : never;

/**
 * Projects type `T` along a union of field paths `P`, merging paths that share a prefix: nested
 * objects keep their shape (and optionality), `*` walks array items so records stay together.
 */
export type ProjectPaths<T, P> = [Extract<P, readonly []>] extends [never]
  ? T extends null | undefined
    ? T
    : "*" extends Heads<P>
      ? T extends readonly (infer E)[]
        ? ProjectPaths<E, Tails<P, "*">>[]
        : never
      : { [K in keyof T as K extends Heads<P> ? K : never]: ProjectPaths<T[K], Tails<P, K>> }
  : T;

/** The result type of a call on output `O` with field paths `Paths` and selected field IDs `F`. */
export type Projected<O, Paths, F extends keyof Paths> = [F] extends [never] ? O : ProjectPaths<O, Paths[F]>;

export type TypedResult<T> = ToolResult<T>;

type BoundMethod = (args: Record<string, unknown>, options?: CallOptions<string>) => Promise<ToolResult>;

/** Builds the method table of a generated client: each method calls the router with its pin. */
export function bindClient(
  router: SchemaRouter,
  pins: Readonly<Record<string, EndpointPin>>,
): Record<string, BoundMethod> {
  const client: Record<string, BoundMethod> = {};
  for (const [method, pin] of Object.entries(pins)) {
    client[method] = (args, options) => {
      // Everything but `fields` is the run's config, checked key by key like router.invoke's.
      const { fields, ...run } = options ?? {};
      return router.call(
        {
          tool: pin.tool,
          endpoint: pin.endpoint,
          arguments: args ?? {},
          ...(fields !== undefined ? { fields } : {}),
          endpointFingerprint: pin.endpointFingerprint,
          toolFingerprint: pin.toolFingerprint,
        },
        run,
      );
    };
  }
  return Object.freeze(client);
}
