/**
 * Request paths of HTTP endpoints: the template's `{name}` placeholders filled with encoded path
 * segments, query parameters appended, and the result confined to the binding's base path. Each
 * (frozen) endpoint contract is compiled once per base URL: placeholders resolved to parameters, the
 * template's literal text checked once, and per call only the values are encoded. A path that the
 * WHATWG URL parser could still rewrite (a segment starting with "." or a template that is not in
 * canonical form) takes the full URL-parsing route, as every path did before.
 */
import { CallRefusedError } from "../errors.js";
import type { EndpointSpec, ParameterSpec } from "../model.js";

export interface BaseUrl {
  readonly origin: string;
  readonly basePath: string;
}

interface CompiledRoute {
  /** Literal template text around the placeholders: `literals.length === placeholders.length + 1`. */
  readonly literals: readonly string[];
  readonly placeholders: readonly { readonly name: string; readonly parameter: ParameterSpec | undefined }[];
  readonly query: readonly ParameterSpec[];
  /** The literal text needs no normalization by the URL parser (checked once). */
  readonly canonical: boolean;
}

const PLACEHOLDER = /\{([^}]+)\}/g;

/** Per base URL (one per binding), per endpoint contract (whose `execution.path` is the template). */
const compiled = new WeakMap<BaseUrl, WeakMap<EndpointSpec, CompiledRoute>>();

function routeOf(base: BaseUrl, template: string, endpoint: EndpointSpec): CompiledRoute {
  let perBase = compiled.get(base);
  if (perBase === undefined) {
    perBase = new WeakMap();
    compiled.set(base, perBase);
  }
  let route = perBase.get(endpoint);
  if (route === undefined) {
    route = compile(base, template, endpoint);
    perBase.set(endpoint, route);
  }
  return route;
}

function compile(base: BaseUrl, template: string, endpoint: EndpointSpec): CompiledRoute {
  const byWire = new Map<string, ParameterSpec>();
  for (const parameter of endpoint.parameters) {
    if (parameter.location === "path") byWire.set(parameter.wireName ?? parameter.name, parameter);
  }
  const literals: string[] = [];
  const placeholders: { name: string; parameter: ParameterSpec | undefined }[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literals.push(template.slice(at, match.index));
    placeholders.push({ name: match[1]!, parameter: byWire.get(match[1]!) });
    at = match.index + match[0].length;
  }
  literals.push(template.slice(at));
  // With a plain segment in every placeholder, the URL parser must give back exactly the same text.
  const probe = base.basePath + literals.join("x");
  let canonical = false;
  try {
    const url = new URL(base.origin + probe);
    canonical = url.origin === base.origin && url.pathname === probe && !/%2e|\\/i.test(probe);
  } catch {
    canonical = false;
  }
  return {
    literals,
    placeholders,
    query: endpoint.parameters.filter((parameter) => parameter.location === "query"),
    canonical,
  };
}

/** The request path (with query string) of one call, confined to `base`. Throws CallRefusedError. */
export function requestPath(
  base: BaseUrl,
  template: string,
  endpoint: EndpointSpec,
  args: Readonly<Record<string, unknown>>,
  route: string,
  trustedQuery: ReadonlyMap<string, string>,
): string {
  const compiledRoute = routeOf(base, template, endpoint);
  let path = compiledRoute.literals[0]!;
  for (let index = 0; index < compiledRoute.placeholders.length; index++) {
    const { name, parameter } = compiledRoute.placeholders[index]!;
    path += segmentOf(name, parameter ? args[parameter.name] : undefined, route);
    path += compiledRoute.literals[index + 1]!;
  }
  let pathname = base.basePath + path;
  // Encoded values hold no "/", "\", "%2e" or "?": only a segment starting with "." can still be rewritten.
  if (!compiledRoute.canonical || pathname.includes("/.")) pathname = parsedPath(base, pathname, route);
  const search = queryOf(compiledRoute.query, args, route, trustedQuery);
  return search === "" ? pathname : `${pathname}?${search}`;
}

function segmentOf(name: string, value: unknown, route: string): string {
  if (value === undefined || value === null) {
    throw new CallRefusedError(
      "MISSING_REQUIRED_ARGUMENT",
      `${route}: path parameter "${name}" is missing.`,
      {
        route,
        argument: name,
      },
    );
  }
  const text = String(value);
  if (text === "" || text === "." || text === "..") {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: path parameter "${name}" is ${text === "" ? "empty" : `"${text}"`}, which would address another resource; pass a real identifier.`,
      { route, argument: name },
    );
  }
  return encodePathSegment(text);
}

/** The path as the URL parser normalizes it, refused when it leaves the base path. */
function parsedPath(base: BaseUrl, pathname: string, route: string): string {
  const url = new URL(base.origin + pathname);
  if (
    url.origin !== base.origin ||
    !(url.pathname === base.basePath || url.pathname.startsWith(`${base.basePath}/`))
  ) {
    throw new CallRefusedError("TRANSPORT_REFUSED", `${route}: the request path leaves the bound base URL.`, {
      route,
    });
  }
  return url.pathname;
}

function queryOf(
  parameters: readonly ParameterSpec[],
  args: Readonly<Record<string, unknown>>,
  route: string,
  trustedQuery: ReadonlyMap<string, string>,
): string {
  let params: URLSearchParams | undefined;
  for (const parameter of parameters) {
    const value = args[parameter.name];
    if (value === undefined) continue;
    const name = parameter.wireName ?? parameter.name;
    if (trustedQuery.has(name)) {
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: query parameter "${name}" can only come from trusted runtime configuration (binding query).`,
        { route, parameter: name, reason: "trusted-query" },
      );
    }
    params ??= new URLSearchParams();
    if (Array.isArray(value)) for (const item of value) params.append(name, scalar(item));
    else params.append(name, scalar(value));
  }
  for (const [name, value] of trustedQuery) {
    params ??= new URLSearchParams();
    params.append(name, value);
  }
  return params === undefined ? "" : params.toString();
}

function scalar(value: unknown): string {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Encodes one path segment (`/`, `?`, `#` and `%` are escaped). The empty segment and the dot segments
 * `.` and `..` have no safe encoding (WHATWG URL parsing treats `%2E%2E` as `..`), so they throw.
 */
export function encodePathSegment(value: string): string {
  if (value === "" || value === "." || value === "..")
    throw new TypeError(`"${value}" cannot be a URL path segment`);
  return encodeURIComponent(value);
}
