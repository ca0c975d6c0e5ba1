/**
 * The shape of an error table (the runtime's in ./registry.ts, the compiler's build-time one) and the
 * types derived from it: which codes a class carries, and the `details` of a code.
 */
import type { DetailsOf, Fields, MergedDetails } from "./fields.js";

export interface ErrorClassRow {
  /** The class it extends (SchemaRouterError at the root). */
  readonly parent?: string;
  readonly meaning: string;
}

export interface ErrorRow<K extends string = string> {
  /** The class that carries the code; several when the same refusal happens at different stages. */
  readonly class: K | readonly [K, ...K[]];
  /** One line: what the code means (docs/reference/error-codes.md, and run events without payloads). */
  readonly meaning: string;
  readonly details: Fields;
}

export type ErrorTable<K extends string = string> = Readonly<Record<string, ErrorRow<K>>>;

type ClassesOf<R> = R extends { readonly class: infer K } ? (K extends readonly (infer E)[] ? E : K) : never;

/** The codes of table T that class K carries. */
export type CodesOf<T extends ErrorTable, K extends string> = {
  [C in keyof T]: K extends ClassesOf<T[C]> ? C : never;
}[keyof T] &
  string;

/**
 * The `details` of code C of table T: exact for one code; for a union of codes one object whose members
 * are optional unless every code requires them (narrow on `code` first to get a code's own shape).
 */
export type DetailsIn<T extends ErrorTable, C extends keyof T> = MergedDetails<
  C extends keyof T ? DetailsOf<T[C]["details"]> : never
>;

/** Code → meaning, for the codes of `table` (or those `classes` carry), in table order. */
export function meaningsOf<T extends ErrorTable, K extends string = string>(
  table: T,
  ...classes: K[]
): Readonly<Record<string extends K ? keyof T & string : CodesOf<T, K>, string>> {
  const out: Record<string, string> = {};
  for (const [code, row] of Object.entries(table)) {
    const owners: readonly string[] = typeof row.class === "string" ? [row.class] : row.class;
    if (classes.length === 0 || owners.some((owner) => (classes as string[]).includes(owner))) {
      out[code] = row.meaning;
    }
  }
  return Object.freeze(out) as never;
}
