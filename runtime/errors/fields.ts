/**
 * The vocabulary of the error tables' `details` columns: each field is a small value that says its
 * kind (for docs/reference/error-codes.md) and carries its TypeScript type (for the error classes),
 * so one row gives both the documentation and the compile-time shape of a code's details.
 */

declare const TYPE: unique symbol;

export type FieldKind = "string" | "number" | "boolean" | "strings" | "json" | "oneOf";

/** One member of a code's details. `T` exists only at compile time. */
export interface Field<T = unknown> {
  readonly kind: FieldKind;
  /** The allowed values of a `oneOf` field (e.g. each `reason`). */
  readonly values?: readonly (string | number)[];
  readonly optional: boolean;
  readonly description?: string;
  readonly [TYPE]?: T;
}

export type Fields = Readonly<Record<string, Field>>;

function field<T>(kind: FieldKind, description?: string, values?: readonly (string | number)[]): Field<T> {
  return Object.freeze({
    kind,
    optional: false,
    ...(values === undefined ? {} : { values: Object.freeze([...values]) }),
    ...(description === undefined ? {} : { description }),
  });
}

export const string = (description?: string): Field<string> => field("string", description);
export const number = (description?: string): Field<number> => field("number", description);
export const boolean = (description?: string): Field<boolean> => field("boolean", description);
export const strings = (description?: string): Field<readonly string[]> => field("strings", description);
/** Any JSON value (a received document, a value as found, a list of violations). */
export const json = (description?: string): Field<unknown> => field("json", description);
/** Exactly one of `values`: a `reason`, a `limit`, an HTTP status. */
export function oneOf<const V extends readonly (string | number)[]>(
  values: V,
  description?: string,
): Field<V[number]> {
  return field("oneOf", description, values);
}

/** The field may be absent. */
export function optional<T>(of: Field<T>): Field<T> & { readonly optional: true } {
  return Object.freeze({ ...of, optional: true as const });
}

type TypeOf<F> = F extends Field<infer T> ? T : never;
type OptionalKeys<S extends Fields> = {
  [K in keyof S]: S[K] extends { readonly optional: true } ? K : never;
}[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of a details column: required and optional members, all read-only. */
export type DetailsOf<S extends Fields> = Flatten<
  { readonly [K in Exclude<keyof S, OptionalKeys<S>>]: TypeOf<S[K]> } & {
    readonly [K in OptionalKeys<S>]?: TypeOf<S[K]>;
  }
>;

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type RequiredKeys<D> = { [K in keyof D]-?: {} extends Pick<D, K> ? never : K }[keyof D];
/** The keys every member of the union requires (`keyof` a union is its common keys). */
type AlwaysRequired<D> = keyof (D extends unknown ? { [K in RequiredKeys<D>]: true } : never);
type ValueAt<D, K extends PropertyKey> = D extends unknown
  ? K extends keyof D
    ? Required<D>[K]
    : never
  : never;

/**
 * The details of one code exactly; of several codes (a class's `details` before narrowing on `code`)
 * one object with every member any of them has, optional unless all of them require it, typed as
 * the union of their types.
 */
export type MergedDetails<D> = [D] extends [never]
  ? never
  : Flatten<
      { readonly [K in AlwaysRequired<D>]: ValueAt<D, K> } & {
        readonly [K in Exclude<KeysOfUnion<D>, AlwaysRequired<D>>]?: ValueAt<D, K>;
      }
    >;
