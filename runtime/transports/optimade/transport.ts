/**
 * The OPTIMADE transport (OPTIMADE v1.2 "Entry Listing Endpoints", "Single Entry Endpoints"): a
 * filter is checked against the grammar before any request, `response_fields` carries exactly the
 * planned fields, pagination follows `links.next` on the bound listing endpoint within local page,
 * record and byte limits, bodies are read bounded, and error documents become typed errors.
 */

import type { Dispatcher } from "undici";
import type { InvocationContext, Invoker } from "../../boundary/invoker.js";
import { positiveLimit } from "../../errors/binding-invalid.js";
import { CallRefusedError, InvocationError, LoadError } from "../../errors/errors.js";
import type { DispatcherLike } from "../http/dispatcher-like.js";
import { checkPlaintextCredentials } from "../http/plaintext.js";
import { fetchPage, type PageTransport } from "./fetch.js";
import { checkFilterArgument, filterableNames, filterTypesOfOutput } from "./filter-argument.js";
import { type Envelope, isRecord, nextLinkOf, parseEnvelope } from "./response.js";
import {
  checkNextLink,
  endpointPath,
  parseOptimadeBaseUrl,
  projectionSelectors,
  requestUrl,
  versionOfBasePath,
} from "./url.js";

export interface OptimadeLimits {
  /** Pages fetched for one listing call (following `links.next`). */
  readonly maxPages: number;
  /** Entries returned by one listing call; more are left out and `meta.more_data_available` is true. */
  readonly maxRecords: number;
  /** Bytes read for one call, over all its pages. */
  readonly maxBytes: number;
  /** Bound of every request. */
  readonly timeoutMs: number;
}

export const DEFAULT_OPTIMADE_LIMITS: OptimadeLimits = {
  maxPages: 10,
  maxRecords: 1000,
  maxBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
};

export interface OptimadeInvokerOptions extends Partial<OptimadeLimits> {
  /** Trusted versioned base URL, e.g. `https://example.org/optimade/v1`. */
  readonly baseUrl: string;
  /** Trusted headers sent on every request (credentials live here, never in arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Custom undici Dispatcher; trusted local code only. */
  readonly dispatcher?: DispatcherLike;
  /** Sends `headers` over plain http to a host that is not loopback (see transports/http/plaintext.ts). */
  readonly allowPlaintextCredentials?: boolean;
}

export function createOptimadeInvoker(options: OptimadeInvokerOptions): Invoker {
  const base = parseOptimadeBaseUrl(options.baseUrl);
  const limits = checkLimits(options);
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.accept = "application/vnd.api+json, application/json;q=0.9";
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
      throw new TypeError(`OPTIMADE binding: header "${name}" has a value with control characters`);
    headers[name.toLowerCase()] = value;
  }
  checkPlaintextCredentials(
    "OPTIMADE",
    new URL(base.href),
    { headers: Object.keys(options.headers ?? {}).length, query: 0 },
    options.allowPlaintextCredentials,
  );
  // The option is an undici Dispatcher (DispatcherLike is its public name).
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  const transport: Transport = { base, limits, headers, dispatcher };
  return { invoke: (context) => invokeOptimade(transport, context) };
}

interface Transport extends PageTransport {
  readonly limits: OptimadeLimits;
}

async function invokeOptimade(transport: Transport, context: InvocationContext): Promise<unknown> {
  const { endpoint, tool } = context;
  const route = `${context.call.tool}.${context.call.endpoint}`;
  const execution = endpoint.execution;
  if (execution.kind !== "optimade" || tool.execution.transport !== "optimade") {
    throw new CallRefusedError(
      "BINDING_NOT_READY",
      `${route} is not an OPTIMADE endpoint; bind it to its own transport.`,
      { route },
    );
  }
  if (parseOptimadeBaseUrl(tool.execution.baseUrl).href !== transport.base.href) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: the invoker is bound to ${transport.base.href}, but the tool was compiled for ${tool.execution.baseUrl}.`,
      { route, reason: "binding-identity" },
    );
  }
  const args = context.call.arguments;
  const projection = endpoint.serverProjection;
  if (projection !== undefined && args[projection.parameter] !== undefined) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: "${projection.parameter}" is set from the selected fields by the trusted server projection; select fields instead of passing it.`,
      { route, argument: projection.parameter },
    );
  }
  const filterParameter = endpoint.parameters.find((parameter) => parameter.name === "filter");
  const filter = filterParameter === undefined ? undefined : args.filter;
  if (typeof filter === "string")
    checkFilterArgument(
      filter,
      filterableNames(tool, endpoint.fields),
      route,
      filterTypesOfOutput(context.outputSchema),
    );
  const path = endpointPath(
    transport.base,
    execution.entryType,
    execution.mode === "single" ? entryId(endpoint.parameters, args, route) : undefined,
  );
  const url = requestUrl(
    transport.base,
    path,
    endpoint,
    args,
    projectionSelectors(endpoint, context.selectedFields),
  );
  const budget = { bytes: transport.limits.maxBytes };
  if (execution.mode === "single") {
    return parseEnvelope(
      route,
      await fetchPage(transport, url, budget, route, context.signal),
      execution.entryType,
      "single",
    );
  }
  return collectPages(transport, url, budget, route, execution.entryType, context.signal);
}

function entryId(
  parameters: InvocationContext["endpoint"]["parameters"],
  args: Readonly<Record<string, unknown>>,
  route: string,
): string {
  const parameter = parameters.find((candidate) => candidate.location === "path");
  const value = parameter === undefined ? undefined : args[parameter.name];
  if (value === undefined || value === null) {
    throw new CallRefusedError("MISSING_REQUIRED_ARGUMENT", `${route}: the entry id is missing.`, {
      route,
      argument: parameter?.name ?? "id",
    });
  }
  const id = String(value);
  if (id === "" || id === "." || id === "..") {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: the entry id ${id === "" ? "is empty" : `"${id}"`}, which would address another resource; pass a real id.`,
      { route, argument: parameter?.name ?? "id" },
    );
  }
  return id;
}

/** Fetches the listing pages and merges them: `data` (and `included`) joined, the rest from the last page. */
async function collectPages(
  transport: Transport,
  first: URL,
  budget: { bytes: number },
  route: string,
  entryType: string,
  signal: AbortSignal,
): Promise<Envelope> {
  const { maxPages, maxRecords } = transport.limits;
  const data: unknown[] = [];
  const included = new Map<string, unknown>();
  const visited = new Set<string>();
  let url = first;
  let last: Envelope;
  for (;;) {
    visited.add(url.href);
    last = parseEnvelope(route, await fetchPage(transport, url, budget, route, signal), entryType, "list");
    data.push(...(last.data as unknown[]));
    if (Array.isArray(last.included)) {
      for (const item of last.included) {
        const key = isRecord(item) ? `${String(item.type)}/${String(item.id)}` : JSON.stringify(item);
        if (!included.has(key)) included.set(key, item);
      }
    }
    const next = nextLinkOf(last);
    if (next === undefined || next === "" || visited.size >= maxPages || data.length >= maxRecords) break;
    url = checkNextLink(next, url, transport.base, route);
    if (visited.has(url.href)) {
      throw new InvocationError(
        "TRANSPORT_REFUSED",
        `${route}: links.next repeats a page already fetched; pagination stopped.`,
        {
          route,
          reason: "next-repeats",
        },
      );
    }
  }
  const merged: Envelope = { ...last, data: data.slice(0, maxRecords) };
  if (included.size > 0) merged.included = [...included.values()];
  if (data.length > maxRecords) {
    // Entries were left out mid-page: the provider's next link would skip them.
    merged.meta = { ...(last.meta as Envelope), more_data_available: true };
    if (isRecord(last.links)) {
      const { next: _dropped, ...links } = last.links;
      merged.links = links;
    }
  }
  return merged;
}

function checkLimits(options: Partial<OptimadeLimits>): OptimadeLimits {
  const limits = { ...DEFAULT_OPTIMADE_LIMITS };
  for (const key of Object.keys(DEFAULT_OPTIMADE_LIMITS) as (keyof OptimadeLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    limits[key] = positiveLimit("OPTIMADE binding", key, value) ?? limits[key];
  }
  return limits;
}

/**
 * What a trusted OPTIMADE binding configures; `baseUrl`, when given, must be the locked versioned
 * base URL or the unversioned one it was discovered from.
 */
export type OptimadeBindingSettings = Omit<OptimadeInvokerOptions, "baseUrl"> & { readonly baseUrl?: string };

/**
 * The invoker of a binding, bound to the locked base URL (the trusted config's location at compile
 * time). A different base URL is a binding-identity mismatch (LOCK_MISMATCH): recompile to move.
 */
export function createOptimadeBinding(
  tool: string,
  lockedBaseUrl: string,
  settings: OptimadeBindingSettings,
): Invoker {
  const { baseUrl, ...options } = settings;
  if (baseUrl !== undefined) {
    let given: string;
    try {
      given = parseOptimadeBaseUrl(baseUrl).href;
    } catch (error) {
      throw new LoadError("LOCK_MISMATCH", `bindings.${tool}: ${(error as Error).message}.`, {
        tool,
        reason: "binding-identity",
      });
    }
    const locked = parseOptimadeBaseUrl(lockedBaseUrl).href;
    // The unversioned base URL names the same provider when the locked one is its `/v1`.
    const unversioned = versionOfBasePath(new URL(given).pathname) === undefined;
    if (given !== locked && !(unversioned && `${given}/v1` === locked)) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `bindings.${tool}: the OPTIMADE base URL ${given} is not the one that was compiled and locked (${lockedBaseUrl}). Bind the locked provider, or change the source and recompile.`,
        { tool, reason: "binding-identity", expected: lockedBaseUrl, actual: given },
      );
    }
  }
  return createOptimadeInvoker({ ...options, baseUrl: lockedBaseUrl });
}
