/**
 * Request URLs of the OData transport (OData URL Conventions v4.01 §4.3 "Addressing Entities", §4.5
 * "Addressing Operations", §5.1 "System Query Options"): key segments and function parameters as
 * literals, `$filter` built only from the structured filter argument, `$orderby`, `$top`, `$skip`,
 * `$count`, and `$select` from the planned fields through the trusted server projection.
 */
import { CallRefusedError } from "../../errors/errors.js";
import type { EndpointSpec, FieldSpec, ODataExecution, ODataTypedName } from "../../model/specs.js";
import { requireLiteral } from "./literals.js";

/** Comparison operators in the order they are written. */
const COMPARISONS = ["eq", "ne", "gt", "ge", "lt", "le"] as const;
const FUNCTIONS = ["contains", "startswith", "endswith"] as const;

type Args = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `$filter` from the structured filter argument: every comparison joined with `and`. */
export function filterExpression(
  route: string,
  filterable: readonly ODataTypedName[],
  filter: unknown,
): string | undefined {
  if (filter === undefined) return undefined;
  if (!isRecord(filter))
    throw new CallRefusedError(
      "ODATA_ARGUMENT_INVALID",
      `${route}: filter must be an object of per-property comparisons.`,
      {
        route,
        argument: "filter",
        type: "filter",
      },
    );
  const types = new Map(filterable.map((entry) => [entry.name, entry.type]));
  for (const name of Object.keys(filter))
    if (!types.has(name))
      throw new CallRefusedError(
        "ODATA_ARGUMENT_INVALID",
        `${route}: filter.${name} is not a filterable property; filter on: ${[...types.keys()].join(", ")}.`,
        { route, argument: `filter.${name}`, type: "filter" },
      );
  const terms: string[] = [];
  for (const { name, type } of filterable) {
    const comparisons = filter[name];
    if (comparisons === undefined) continue;
    if (!isRecord(comparisons))
      throw new CallRefusedError(
        "ODATA_ARGUMENT_INVALID",
        `${route}: filter.${name} must be an object of operators.`,
        {
          route,
          argument: `filter.${name}`,
          type,
        },
      );
    const known = new Set<string>([...COMPARISONS, ...FUNCTIONS, "in"]);
    for (const operator of Object.keys(comparisons))
      if (!known.has(operator))
        throw new CallRefusedError(
          "ODATA_ARGUMENT_INVALID",
          `${route}: filter.${name}.${operator} is not an operator; use ${[...known].join(", ")}.`,
          { route, argument: `filter.${name}.${operator}`, type },
        );
    for (const operator of COMPARISONS) {
      if (!(operator in comparisons)) continue;
      const literal = requireLiteral(route, `filter.${name}.${operator}`, type, comparisons[operator]);
      terms.push(`${name} ${operator} ${literal}`);
    }
    if ("in" in comparisons) {
      const values = comparisons.in;
      if (!Array.isArray(values) || values.length === 0)
        throw new CallRefusedError(
          "ODATA_ARGUMENT_INVALID",
          `${route}: filter.${name}.in must be a non-empty list.`,
          {
            route,
            argument: `filter.${name}.in`,
            type,
          },
        );
      const literals = values.map((value, index) =>
        requireLiteral(route, `filter.${name}.in[${index}]`, type, value),
      );
      terms.push(`${name} in (${literals.join(",")})`);
    }
    for (const operator of FUNCTIONS) {
      if (!(operator in comparisons)) continue;
      if (type !== "Edm.String")
        throw new CallRefusedError(
          "ODATA_ARGUMENT_INVALID",
          `${route}: ${operator} applies to strings only.`,
          {
            route,
            argument: `filter.${name}.${operator}`,
            type,
          },
        );
      const literal = requireLiteral(
        route,
        `filter.${name}.${operator}`,
        "Edm.String",
        comparisons[operator],
      );
      terms.push(`${operator}(${name},${literal})`);
    }
  }
  return terms.length === 0 ? undefined : terms.join(" and ");
}

/** `$orderby` from the orderby argument: only declared property names, optionally `asc`/`desc`. */
export function orderbyExpression(
  route: string,
  filterable: readonly ODataTypedName[],
  orderby: unknown,
): string | undefined {
  if (orderby === undefined) return undefined;
  const names = new Set(filterable.map((entry) => entry.name));
  const items = Array.isArray(orderby) ? orderby : [orderby];
  const out = items.map((item, index) => {
    const match = typeof item === "string" ? /^([A-Za-z_][A-Za-z0-9_]*)( (asc|desc))?$/.exec(item) : null;
    if (match === null || !names.has(match[1]!))
      throw new CallRefusedError(
        "ODATA_ARGUMENT_INVALID",
        `${route}: orderby[${index}] is not a sortable property (optionally followed by " asc" or " desc").`,
        { route, argument: `orderby[${index}]`, type: "orderby" },
      );
    return item as string;
  });
  return out.length === 0 ? undefined : out.join(",");
}

/** The key predicate `(1)` or `(a=1,b='x')` of the addressed entity. */
export function keyPredicate(route: string, keys: readonly ODataTypedName[], args: Args): string {
  const parts = keys.map(({ name, type }) => {
    const value = args[name];
    if (value === undefined || value === null)
      throw new CallRefusedError("MISSING_REQUIRED_ARGUMENT", `${route}: key property ${name} is missing.`, {
        route,
        argument: name,
      });
    return { name, literal: requireLiteral(route, name, type, value) };
  });
  const inner =
    parts.length === 1 ? parts[0]!.literal : parts.map((part) => `${part.name}=${part.literal}`).join(",");
  return `(${encodeURIComponent(inner).replace(/%3D/g, "=").replace(/%2C/g, ",").replace(/%27/g, "'")})`;
}

/** The resource path (relative to the service root) of a call. */
export function resourcePath(route: string, execution: ODataExecution, args: Args): string {
  let path = `/${encodeURIComponent(execution.resource)}`;
  if (execution.keys.length > 0) path += keyPredicate(route, execution.keys, args);
  if (execution.bound !== undefined) path += `/${encodeURIComponent(execution.bound)}`;
  if (execution.operation === "function") {
    const parameters = execution.parameters
      .filter(({ name }) => args[name] !== undefined)
      .map(
        ({ name, type }) =>
          `${name}=${encodeURIComponent(requireLiteral(route, name, type, args[name])).replace(/%27/g, "'")}`,
      );
    path += `(${parameters.join(",")})`;
  }
  return path;
}

/**
 * The `$select` list of the planned fields: `always` first, then in field order, unique. Undefined
 * (send none: every property) when there is no trusted projection or a planned field has no selector
 * (e.g. one added by an overlay): the service is never asked for less than the plan needs.
 */
export function selectList(endpoint: EndpointSpec, fields: readonly FieldSpec[]): string[] | undefined {
  const projection = endpoint.serverProjection;
  if (projection === undefined) return undefined;
  const out = new Set(projection.always);
  for (const field of fields) {
    const selector = projection.selectors[field.id];
    if (selector !== undefined) out.add(selector);
    else if (!field.path[0]?.startsWith("@")) return undefined;
  }
  return [...out];
}

/** The first request URL of a call. */
export function requestUrl(
  route: string,
  serviceRoot: URL,
  endpoint: EndpointSpec,
  execution: ODataExecution,
  args: Args,
  selected: readonly FieldSpec[],
): URL {
  const base =
    serviceRoot.pathname === "/" ? serviceRoot.origin : `${serviceRoot.origin}${serviceRoot.pathname}`;
  const url = new URL(`${base}${resourcePath(route, execution, args)}`);
  // Spaces are %20, never "+": OData URL parsers (CAP's among them) read "+" literally.
  const query: [string, string][] = [];
  if (execution.operation === "list") {
    const filter = filterExpression(route, execution.filterable, args.filter);
    if (filter !== undefined) query.push(["$filter", filter]);
    const orderby = orderbyExpression(route, execution.filterable, args.orderby);
    if (orderby !== undefined) query.push(["$orderby", orderby]);
    for (const name of ["top", "skip"] as const) {
      const value = args[name];
      if (value === undefined) continue;
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        throw new CallRefusedError(
          "ODATA_ARGUMENT_INVALID",
          `${route}: ${name} must be a non-negative integer.`,
          {
            route,
            argument: name,
            type: "Edm.Int32",
          },
        );
      query.push([`$${name}`, String(value)]);
    }
    if (args.count === true) query.push(["$count", "true"]);
  }
  if (
    execution.operation === "list" ||
    execution.operation === "get" ||
    execution.operation === "singleton"
  ) {
    const select = selectList(endpoint, selected);
    if (select !== undefined && endpoint.serverProjection !== undefined)
      query.push(["$select", select.join(endpoint.serverProjection.separator)]);
  }
  url.search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
  return url;
}
