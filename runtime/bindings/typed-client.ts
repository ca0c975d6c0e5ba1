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

/**
 * The path entry of a field whose result path differs from its source path (an overlay `resultPath`,
 * docs/runtime/field-projection.md): the value read at `from` is returned at `to`.
 */
export interface MovedPath {
  readonly from: readonly string[];
  readonly to: readonly string[];
}

/** The value at source key `K` of `T`; `undefined` where the projection finds nothing there. */
type ValueAt<T, K> = T extends null | undefined
  ? undefined
  : T extends readonly unknown[]
    ? undefined
    : K extends keyof T
      ? T[K]
      : undefined;

/**
 * A key that is optional exactly when it may be absent: its value may be missing, or it is a record
 * whose every key may be (the projection creates a parent only to hold a value).
 */
type KeyOf<K extends string, V> = undefined extends V
  ? { [P in K]?: Exclude<V, undefined> }
  : {} extends V
    ? { [P in K]?: V }
    : { [P in K]: V };

/**
 * The result shape of one moved field: source segments are read first (up to the next `*` or the
 * end), then result segments nest the value; at a `*` in both, array items map to items.
 */
type MovePath<T, From, To> = From extends readonly [infer Head, ...infer Rest]
  ? Head extends "*"
    ? To extends readonly [infer Key extends string, ...infer More]
      ? Key extends "*"
        ? T extends readonly (infer E)[]
          ? MovePath<E, Rest, More>[]
          : undefined
        : KeyOf<Key, MovePath<T, From, More>>
      : never
    : MovePath<ValueAt<T, Head>, Rest, To>
  : To extends readonly [infer Key extends string, ...infer More]
    ? KeyOf<Key, MovePath<T, From, More>>
    : T;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** One object type from an intersection of nested object types (so results read as plain records). */
type Merged<T> = T extends readonly unknown[]
  ? Merged<T[number]>[]
  : T extends object
    ? { [K in keyof T]: Merged<T[K]> }
    : T;

/** Fields read and returned at the same path, and moved fields, combined into one result type. */
type ProjectFields<O, P> = [Extract<P, MovedPath>] extends [never]
  ? ProjectPaths<O, P>
  : Merged<
      ([Exclude<P, MovedPath>] extends [never] ? unknown : ProjectPaths<O, Exclude<P, MovedPath>>) &
        UnionToIntersection<P extends MovedPath ? MovePath<O, P["from"], P["to"]> : never>
    >;

/** The result type of a call on output `O` with field paths `Paths` and selected field IDs `F`. */
export type Projected<O, Paths, F extends keyof Paths> = [F] extends [never] ? O : ProjectFields<O, Paths[F]>;

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
      // Two literals rather than a conditional spread, and no rest copy of options that hold only
      // `fields` (the common case): no temporary objects on every call's path.
      const fields = options?.fields;
      const call =
        fields === undefined
          ? {
              tool: pin.tool,
              endpoint: pin.endpoint,
              arguments: args ?? {},
              endpointFingerprint: pin.endpointFingerprint,
              toolFingerprint: pin.toolFingerprint,
            }
          : {
              tool: pin.tool,
              endpoint: pin.endpoint,
              arguments: args ?? {},
              fields,
              endpointFingerprint: pin.endpointFingerprint,
              toolFingerprint: pin.toolFingerprint,
            };
      return router.call(call, runConfigOf(options));
    };
  }
  return Object.freeze(client);
}

const NO_RUN_CONFIG: RunConfig = Object.freeze({});

/**
 * Everything in a typed call's options but `fields` is the run's config, checked key by key like
 * router.invoke's: every enumerable key, inherited ones included (a budget on the options' prototype
 * is not dropped). Options with no key but `fields` are the empty config itself.
 */
function runConfigOf(options: CallOptions<string> | undefined): RunConfig {
  if (options === undefined || options === null) return NO_RUN_CONFIG;
  let run: Record<string, unknown> | undefined;
  for (const key in options) {
    if (key === "fields") continue;
    // No prototype: a "__proto__" key is an option like any other (refused as unknown), never a parent.
    run ??= Object.create(null) as Record<string, unknown>;
    run[key] = (options as Record<string, unknown>)[key];
  }
  return run === undefined ? NO_RUN_CONFIG : (run as RunConfig);
}
