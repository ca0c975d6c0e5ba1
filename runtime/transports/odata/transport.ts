/**
 * The OData v4 transport (docs/sources/odata.md "Calls"): request URLs from validated, typed
 * arguments (key predicates, function parameters and `$filter` as escaped literals), `$select` from
 * the planned fields, actions as POST with a JSON body, `@odata.nextLink` followed only on the same
 * origin and entity set within local page, record and byte limits, and error bodies as ODATA_ERROR.
 */
import type { Dispatcher } from "undici";
import type { InvocationContext, Invoker } from "../../boundary/invoker.js";
import { positiveLimit } from "../../errors/binding-invalid.js";
import { CallRefusedError, InvocationError, LoadError } from "../../errors/errors.js";
import type { ODataExecution } from "../../model/specs.js";
import type { DispatcherLike } from "../http/dispatcher-like.js";
import { checkPlaintextCredentials } from "../http/plaintext.js";
import { type RequestTransport, sendRequest } from "./fetch.js";
import { requestUrl } from "./query.js";
import { parseBody } from "./response.js";

export interface OdataLimits {
  /** Pages fetched for one collection call (following `@odata.nextLink`). */
  readonly maxPages: number;
  /** Entities returned by one call; more are left out and `@schemarouter.moreDataAvailable` is true. */
  readonly maxRecords: number;
  /** Bytes read for one call, over all its pages. */
  readonly maxBytes: number;
  /** Bound of every request. */
  readonly timeoutMs: number;
}

export const DEFAULT_ODATA_LIMITS: OdataLimits = {
  maxPages: 10,
  maxRecords: 1000,
  maxBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
};

export interface OdataInvokerOptions extends Partial<OdataLimits> {
  /** Trusted service root, e.g. `https://example.org/odata/v4/catalog`. */
  readonly serviceRoot: string;
  /** Trusted headers sent on every request (credentials live here, never in arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Custom undici Dispatcher; trusted local code only. */
  readonly dispatcher?: DispatcherLike;
  /** Sends `headers` over plain http to a host that is not loopback (see transports/http/plaintext.ts). */
  readonly allowPlaintextCredentials?: boolean;
}

/** Parses and normalizes a service root: http(s), no credentials, query or fragment, no trailing slash. */
export function parseServiceRoot(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`OData service root "${value}" is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`OData service root must be http(s), got ${url.protocol}`);
  if (url.username || url.password)
    throw new TypeError("OData service root must not carry credentials; use trusted binding headers");
  if (url.search || url.hash)
    throw new TypeError("OData service root must not have a query string or fragment");
  return new URL(`${url.origin}${url.pathname.replace(/\/+$/, "")}`);
}

interface Transport extends RequestTransport {
  readonly root: URL;
  readonly limits: OdataLimits;
}

export function createOdataInvoker(options: OdataInvokerOptions): Invoker {
  const root = parseServiceRoot(options.serviceRoot);
  const limits = { ...DEFAULT_ODATA_LIMITS };
  for (const key of Object.keys(DEFAULT_ODATA_LIMITS) as (keyof OdataLimits)[]) {
    const value = options[key];
    if (value !== undefined) limits[key] = positiveLimit("OData binding", key, value) ?? limits[key];
  }
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.accept = "application/json;odata.metadata=minimal;IEEE754Compatible=true";
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
      throw new TypeError(`OData binding: header "${name}" has a value with control characters`);
    headers[name.toLowerCase()] = value;
  }
  checkPlaintextCredentials(
    "OData",
    root,
    { headers: Object.keys(options.headers ?? {}).length, query: 0 },
    options.allowPlaintextCredentials,
  );
  const transport: Transport = {
    root,
    origin: root.origin,
    limits,
    headers,
    secrets: Object.values(options.headers ?? {}),
    // The option is an undici Dispatcher (DispatcherLike is its public name).
    dispatcher: options.dispatcher as Dispatcher | undefined,
  };
  return { invoke: (context) => invokeOdata(transport, context) };
}

async function invokeOdata(transport: Transport, context: InvocationContext): Promise<unknown> {
  const { endpoint, tool } = context;
  const route = `${context.call.tool}.${context.call.endpoint}`;
  const execution = endpoint.execution;
  if (execution.kind !== "odata" || tool.execution.transport !== "odata") {
    throw new CallRefusedError(
      "BINDING_NOT_READY",
      `${route} is not an OData endpoint; bind it to its own transport.`,
      {
        route,
      },
    );
  }
  if (parseServiceRoot(tool.execution.serviceRoot).href !== transport.root.href) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: the invoker is bound to ${transport.root.href}, but the tool was compiled for ${tool.execution.serviceRoot}.`,
      { route, reason: "binding-identity" },
    );
  }
  const args = context.call.arguments;
  const url = requestUrl(route, transport.root, endpoint, execution, args, context.selectedFields);
  const budget = { bytes: transport.limits.maxBytes };
  if (execution.operation === "action") {
    const body: Record<string, unknown> = {};
    for (const { name } of execution.parameters) if (args[name] !== undefined) body[name] = args[name];
    const text = await sendRequest(transport, url, JSON.stringify(body), budget, route, context.signal);
    return text === "" ? null : parseBody(route, text, execution.collection);
  }
  if (!execution.collection)
    return parseBody(
      route,
      await sendRequest(transport, url, undefined, budget, route, context.signal),
      false,
    );
  return collectPages(transport, url, execution, budget, route, context.signal);
}

/** Fetches the pages of a collection and merges them: `value` joined, count from the first page. */
async function collectPages(
  transport: Transport,
  first: URL,
  execution: ODataExecution,
  budget: { bytes: number },
  route: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { maxPages, maxRecords } = transport.limits;
  const value: unknown[] = [];
  const visited = new Set<string>();
  let url = first;
  let firstPage: Record<string, unknown> | undefined;
  let next: string | undefined;
  for (;;) {
    visited.add(url.href);
    const page = parseBody(
      route,
      await sendRequest(transport, url, undefined, budget, route, signal),
      true,
    ) as Record<string, unknown>;
    firstPage ??= page;
    value.push(...(page.value as unknown[]));
    next = typeof page["@odata.nextLink"] === "string" ? page["@odata.nextLink"] : undefined;
    if (next === undefined || visited.size >= maxPages || value.length >= maxRecords) break;
    url = checkNextLink(next, url, first, transport.root, route, execution);
    if (visited.has(url.href))
      throw new InvocationError(
        "TRANSPORT_REFUSED",
        `${route}: @odata.nextLink repeats a page already fetched; paging stopped.`,
        {
          route,
          reason: "next-repeats",
        },
      );
  }
  const merged: Record<string, unknown> = {};
  for (const key of ["@odata.context", "@odata.count"])
    if (firstPage?.[key] !== undefined) merged[key] = firstPage[key];
  merged.value = value.slice(0, maxRecords);
  if (next !== undefined || value.length > maxRecords) merged["@schemarouter.moreDataAvailable"] = true;
  return merged;
}

/**
 * Resolves `@odata.nextLink` and refuses it unless it stays on the bound origin and addresses the same
 * resource (entity set) as the first request: credentials and the page budget never follow it elsewhere.
 */
function checkNextLink(
  next: string,
  current: URL,
  first: URL,
  root: URL,
  route: string,
  execution: ODataExecution,
): URL {
  let url: URL;
  try {
    url = new URL(next, current);
  } catch {
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: @odata.nextLink is not a valid URL; paging stopped.`,
      {
        route,
        reason: "next-invalid",
      },
    );
  }
  if (url.origin !== root.origin)
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: @odata.nextLink points to another origin (${url.origin}); paging only follows links on ${root.origin}.`,
      { route, reason: "next-origin", origin: url.origin },
    );
  if (url.username || url.password || url.pathname !== first.pathname)
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: @odata.nextLink leaves ${execution.resource} (it points to ${url.pathname}); paging only follows links on the same entity set.`,
      { route, reason: "next-path", path: url.pathname },
    );
  url.hash = "";
  return url;
}

/**
 * What a trusted OData binding configures; `serviceRoot`, when given, must be the locked one.
 */
export type OdataBindingSettings = Omit<OdataInvokerOptions, "serviceRoot"> & {
  readonly serviceRoot?: string;
};

/** The invoker of a binding, bound to the locked service root; a different one is LOCK_MISMATCH. */
export function createOdataBinding(
  tool: string,
  lockedServiceRoot: string,
  settings: OdataBindingSettings,
): Invoker {
  const { serviceRoot, ...options } = settings;
  if (serviceRoot !== undefined) {
    let given: string;
    try {
      given = parseServiceRoot(serviceRoot).href;
    } catch (error) {
      throw new LoadError("LOCK_MISMATCH", `bindings.${tool}: ${(error as Error).message}.`, {
        tool,
        reason: "binding-identity",
      });
    }
    if (given !== parseServiceRoot(lockedServiceRoot).href)
      throw new LoadError(
        "LOCK_MISMATCH",
        `bindings.${tool}: the OData service root ${given} is not the one that was compiled and locked (${lockedServiceRoot}). Bind the locked service, or change the source and recompile.`,
        { tool, reason: "binding-identity", expected: lockedServiceRoot, actual: given },
      );
  }
  return createOdataInvoker({ ...options, serviceRoot: lockedServiceRoot });
}
