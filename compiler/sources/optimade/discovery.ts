/**
 * Discovery of an OPTIMADE provider at build time (OPTIMADE v1.2 "Base URL", "Versions Endpoint",
 * "Base Info Endpoint", "Entry Listing Info Endpoints"): the versioned base URL (given, or found
 * through /versions), /info and /info/<entry type> for every entry type served, and which
 * pagination parameters each listing accepts. Every fetch is bounded and same-origin.
 */
import {
  digestJson,
  type OptimadeBase,
  parseOptimadeBaseUrl,
  sanitizeLocation,
  versionOfBasePath,
} from "schemarouter/internal";
import { SourceError } from "../../errors/errors.js";
import { checkSourceUrl, fetchDocument } from "../fetch.js";
import type { SourceContext } from "../types.js";
import type { Pagination } from "./endpoints.js";

type Node = Record<string, unknown>;

export interface InfoDocument {
  /** Path under the versioned base URL, e.g. `/info/structures`. */
  readonly path: string;
  readonly body: Node;
  /** SHA-256 of the bytes exactly as received. */
  readonly digest: string;
}

export interface Discovery {
  readonly base: OptimadeBase;
  readonly info: InfoDocument;
  /** Entry types in the order the provider lists them. */
  readonly entryTypes: readonly string[];
}

/** Resolves the versioned base URL and reads /info. */
export async function discoverProvider(
  source: string,
  location: string,
  context: SourceContext,
): Promise<Discovery> {
  let given: OptimadeBase;
  try {
    given = parseOptimadeBaseUrl(location);
  } catch (error) {
    throw new SourceError(source, "URL_NOT_ALLOWED", `${(error as Error).message}.`, {
      location: sanitizeLocation(location),
    });
  }
  checkSourceUrl(source, given.href, context.allowInsecureHttp);
  const major = versionOfBasePath(given.basePath);
  let base = given;
  if (major === undefined) {
    const text = Buffer.from(
      await fetchDocument(source, `${given.href}/versions`, fetchOptions(context)),
    ).toString("utf8");
    const versions = parseVersions(text);
    if (!versions.includes("1")) {
      throw new SourceError(
        source,
        "SOURCE_INVALID",
        `the provider serves API major versions ${versions.join(", ") || "(none)"} (from /versions); schemarouter reads OPTIMADE v1. Point the source at a v1 base URL.`,
        { versions },
      );
    }
    base = parseOptimadeBaseUrl(`${given.href}/v1`);
  } else if (major !== 1) {
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the base URL names API version ${major}; schemarouter reads OPTIMADE v1 (a /v1 base URL).`,
      {
        version: major,
      },
    );
  }
  const info = await fetchInfo(source, base, "/info", context);
  const data = isRecord(info.body.data) ? info.body.data : undefined;
  const attributes = data !== undefined && isRecord(data.attributes) ? data.attributes : undefined;
  if (attributes === undefined) throw invalid(source, "/info", "`data.attributes` is missing");
  const apiVersion = attributes.api_version;
  if (typeof apiVersion === "string" && !/^1(\.|$)/.test(apiVersion)) {
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `/info reports api_version ${apiVersion}; schemarouter reads OPTIMADE v1.`,
      { apiVersion },
    );
  }
  const byFormat = isRecord(attributes.entry_types_by_format) ? attributes.entry_types_by_format : undefined;
  const json = byFormat?.json;
  if (!Array.isArray(json) || !json.every((type) => typeof type === "string")) {
    throw invalid(
      source,
      "/info",
      "`data.attributes.entry_types_by_format.json` is not a list of entry types",
    );
  }
  return { base, info, entryTypes: json as string[] };
}

/** Fetches and parses one info document under the versioned base URL. */
export async function fetchInfo(
  source: string,
  base: OptimadeBase,
  path: string,
  context: SourceContext,
): Promise<InfoDocument> {
  const bytes = await fetchDocument(source, `${base.href}${path}`, fetchOptions(context));
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `${path} is not valid JSON: ${(error as Error).message}`,
      { path },
      { cause: error },
    );
  }
  if (!isRecord(body)) throw invalid(source, path, "the document is not a JSON object");
  return { path, body, digest: digestJson(withoutVolatileMeta(body)) };
}

/**
 * The document without the members a provider regenerates on every request (`meta.time_stamp`,
 * `meta.query`, `meta.response_message`): otherwise every compile of a live provider would look like drift.
 */
function withoutVolatileMeta(body: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(body.meta)) return body;
  const { time_stamp: _time, query: _query, response_message: _message, ...meta } = body.meta;
  return { ...body, meta };
}

/** Statuses with which a listing refuses a pagination parameter it does not support. */
const REFUSED = new Set([400, 403, 404, 422, 501]);

/**
 * Which pagination parameters the listing of an entry type accepts: a cursor or offset/number named
 * by the first page's links.next, otherwise a one-entry probe per parameter (accepted = supported).
 */
export async function probePaginations(
  source: string,
  base: OptimadeBase,
  entryType: string,
  context: SourceContext,
): Promise<Pagination[]> {
  const listing = `${base.href}/${encodeURIComponent(entryType)}`;
  const first = await fetchDocument(
    source,
    `${listing}?page_limit=1&response_fields=id`,
    fetchOptions(context),
  );
  const found = new Set<Pagination>();
  let next: unknown;
  try {
    const body = JSON.parse(Buffer.from(first).toString("utf8")) as unknown;
    const links = isRecord(body) && isRecord(body.links) ? body.links : {};
    next = isRecord(links.next) ? links.next.href : links.next;
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `/${entryType} is not valid JSON.`,
      { entryType },
      { cause: error },
    );
  }
  if (typeof next === "string") {
    let params: URLSearchParams;
    try {
      params = new URL(next, listing).searchParams;
    } catch (error) {
      throw new SourceError(
        source,
        "SOURCE_INVALID",
        `/${entryType} answered a links.next that is not a URL; the provider's pagination cannot be followed.`,
        { entryType },
        { cause: error },
      );
    }
    if (params.has("page_cursor")) found.add("cursor");
    if (params.has("page_offset")) found.add("offset");
    if (params.has("page_number")) found.add("number");
  }
  const probes: [Pagination, string][] = [
    ["offset", "page_offset=1"],
    ["number", "page_number=2"],
  ];
  for (const [pagination, query] of probes) {
    if (found.has(pagination)) continue;
    try {
      await fetchDocument(
        source,
        `${listing}?page_limit=1&${query}&response_fields=id`,
        fetchOptions(context),
      );
      found.add(pagination);
    } catch (error) {
      const status = error instanceof SourceError ? error.details.status : undefined;
      if (typeof status !== "number" || !REFUSED.has(status)) throw error;
    }
  }
  return (["offset", "number", "cursor"] as const).filter((pagination) => found.has(pagination));
}

/** The major versions of a /versions CSV document (first column after the `version` header). */
export function parseVersions(text: string): string[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines[0]?.split(",")[0]?.trim();
  if (header !== "version") return [];
  return lines
    .slice(1)
    .map((line) => line.split(",")[0]?.trim() ?? "")
    .filter((version) => /^\d+$/.test(version));
}

function fetchOptions(context: SourceContext) {
  return {
    headers: { accept: "application/vnd.api+json, application/json;q=0.9, text/csv;q=0.8" },
    allowInsecureHttp: context.allowInsecureHttp,
  };
}

function invalid(source: string, path: string, problem: string): SourceError {
  return new SourceError(source, "SOURCE_INVALID", `${path} is not an OPTIMADE info document: ${problem}.`, {
    path,
  });
}

export function isRecord(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
