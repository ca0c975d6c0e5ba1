/**
 * The TypeScript type of a local endpoint's arguments, read from its `input` JSON Schema at the type
 * level (docs/sources/local.md, "Typed handlers"): `type`, `properties`, `required`,
 * `additionalProperties: false`, `items`, `enum`, `const`, `anyOf` / `oneOf`, nested up to a bounded
 * depth. A schema the type level cannot read (not a literal, or beyond the depth) gives
 * `Readonly<Record<string, unknown>>`, what a handler got before. The boundary validates arguments
 * against the same schema before the handler runs, so the type is what the handler receives.
 */

type Depth = [0, 0, 1, 2, 3, 4, 5, 6];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The value type a JSON Schema describes (`unknown` where it cannot be read). */
export type SchemaValue<S, D extends number = 7> = [D] extends [0]
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: readonly (infer U)[] }
        ? SchemaValue<U, Depth[D]>
        : S extends { readonly oneOf: readonly (infer U)[] }
          ? SchemaValue<U, Depth[D]>
          : S extends { readonly type: readonly (infer T)[] }
            ? TypeValue<T, S, D>
            : S extends { readonly type: infer T }
              ? TypeValue<T, S, D>
              : unknown;

type TypeValue<T, S, D extends number> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? SchemaValue<I, Depth[D]>[]
            : unknown[]
          : T extends "object"
            ? ObjectValue<S, D>
            : unknown;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectValue<S, D extends number> = S extends { readonly properties: infer P }
  ? Simplify<
      { readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: SchemaValue<P[K], Depth[D]> } & {
        readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: SchemaValue<P[K], Depth[D]>;
      } & (S extends { readonly additionalProperties: false } ? {} : { readonly [name: string]: unknown })
    >
  : Readonly<Record<string, unknown>>;

/** A handler's arguments for `input` schema `S`: its object type, or any record when unreadable. */
export type ArgumentsOf<S> =
  SchemaValue<S> extends infer A
    ? unknown extends A
      ? Readonly<Record<string, unknown>>
      : A extends object
        ? A
        : Readonly<Record<string, unknown>>
    : never;
