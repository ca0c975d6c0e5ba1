/**
 * The typed-binding support that generated code imports: pins, call options, and the type-level
 * projection that narrows a result to exactly the selected fields (nested paths keep their object
 * shape, `*` segments keep arrays of records).
 */
import type { ToolResult } from "./model.js";
import type { SchemaRouter } from "./router.js";

/** The contract a generated binding was generated from. */
export interface EndpointPin {
  readonly tool: string;
  readonly endpoint: string;
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
}

export interface CallOptions<F extends string> {
  /** Logical field IDs to return; omitted = every declared field. */
  readonly fields?: readonly F[];
  readonly signal?: AbortSignal;
}

/** Projects type `T` along one field path. */
export type ProjectPath<T, P> = P extends readonly []
  ? T
  : T extends null | undefined
    ? T
    : P extends readonly [infer H, ...infer R]
      ? H extends "*"
        ? T extends readonly (infer E)[]
          ? ProjectPath<E, R>[]
          : never
        : H extends keyof T
          ? { [K in keyof T as K extends H ? K : never]: ProjectPath<T[K], R> }
          : never
      : never;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** Flattens intersections of projected records into one object type (recursively). */
export type Merge<T> = T extends readonly (infer E)[]
  ? Merge<E>[]
  : T extends object
    ? { [K in keyof T]: Merge<T[K]> }
    : T;

/** The result type of a call on output `O` with field paths `Paths` and selected field IDs `F`. */
export type Projected<O, Paths, F extends keyof Paths> = [F] extends [never]
  ? O
  : Merge<UnionToIntersection<F extends keyof Paths ? ProjectPath<O, Paths[F]> : never>>;

export type TypedResult<T> = ToolResult<T>;

type BoundMethod = (args: Record<string, unknown>, options?: CallOptions<string>) => Promise<ToolResult>;

/** Builds the method table of a generated client: each method calls the router with its pin. */
export function bindClient(router: SchemaRouter, pins: Readonly<Record<string, EndpointPin>>): Record<string, BoundMethod> {
  const client: Record<string, BoundMethod> = {};
  for (const [method, pin] of Object.entries(pins)) {
    client[method] = (args, options) =>
      router.call(
        {
          tool: pin.tool,
          endpoint: pin.endpoint,
          arguments: args ?? {},
          ...(options?.fields !== undefined ? { fields: options.fields } : {}),
          endpointFingerprint: pin.endpointFingerprint,
          toolFingerprint: pin.toolFingerprint,
        },
        options?.signal ? { signal: options.signal } : {},
      );
  }
  return Object.freeze(client);
}
