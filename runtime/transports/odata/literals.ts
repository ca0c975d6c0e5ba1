/**
 * OData URL literals of typed values (OData ABNF v4.01 "primitiveLiteral"; docs/sources/odata.md
 * "Filters"): strings quoted with `'` doubled, numbers and dates checked against their literal
 * grammar before they are written, enumeration members qualified. Every value was validated against
 * the locked input schema already; a value that still has no literal form is refused, never sent.
 */
import { CallRefusedError } from "../../errors/errors.js";

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  "Edm.Byte": [0, 255],
  "Edm.SByte": [-128, 127],
  "Edm.Int16": [-32768, 32767],
  "Edm.Int32": [-2147483648, 2147483647],
};

/** Literal grammars of the types written as they are (no quotes). */
const PLAIN: Readonly<Record<string, RegExp>> = {
  "Edm.Int64": /^-?[0-9]{1,19}$/,
  "Edm.Decimal": /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/,
  "Edm.Date": /^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}$/,
  "Edm.DateTimeOffset":
    /^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})$/,
  "Edm.TimeOfDay": /^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?$/,
  "Edm.Guid": /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

const DURATION = /^-?P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\.[0-9]+)?S)?)?$/;
const MEMBER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const QUALIFIED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** The literal of `value` as EDM `type` (a primitive, or a qualified enumeration type), or undefined. */
export function literalOf(type: string, value: unknown): string | undefined {
  if (value === null) return "null";
  if (type === "Edm.String") return typeof value === "string" ? `'${value.replace(/'/g, "''")}'` : undefined;
  if (type === "Edm.Boolean") return typeof value === "boolean" ? String(value) : undefined;
  const range = INTEGER_RANGES[type];
  if (range !== undefined)
    return Number.isSafeInteger(value) && (value as number) >= range[0] && (value as number) <= range[1]
      ? String(value)
      : undefined;
  if (type === "Edm.Double" || type === "Edm.Single") {
    if (value === "INF" || value === "-INF" || value === "NaN") return value;
    return typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
  }
  const plain = PLAIN[type];
  if (plain !== undefined) return typeof value === "string" && plain.test(value) ? value : undefined;
  if (type === "Edm.Duration")
    return typeof value === "string" && DURATION.test(value) && value !== "P" && !value.endsWith("T")
      ? `duration'${value}'`
      : undefined;
  if (QUALIFIED.test(type) && !type.startsWith("Edm."))
    return typeof value === "string" && value.split(",").every((member) => MEMBER.test(member.trim()))
      ? `${type}'${value}'`
      : undefined;
  return undefined;
}

/** The literal, or a typed refusal naming the argument. */
export function requireLiteral(route: string, argument: string, type: string, value: unknown): string {
  const literal = literalOf(type, value);
  if (literal === undefined)
    throw new CallRefusedError(
      "ODATA_ARGUMENT_INVALID",
      `${route}: ${argument} cannot be written as an ${type} literal; pass a value of that type.`,
      { route, argument, type },
    );
  return literal;
}
