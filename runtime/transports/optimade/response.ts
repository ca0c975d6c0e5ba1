/**
 * OPTIMADE response documents (OPTIMADE v1.2 "JSON Response Schema: Common Fields", "Entry Listing
 * JSON Response Schema", "HTTP Response Status Codes"): the JSON:API envelope of each page is checked
 * before it is merged, and error documents become typed errors carrying the provider's `detail`.
 */
import { InvocationError } from "../../errors/errors.js";

export type Envelope = Record<string, unknown>;

/** HTTP statuses with an OPTIMADE meaning, and the code each becomes. */
const OPTIMADE_STATUS = {
  400: "OPTIMADE_BAD_REQUEST",
  403: "OPTIMADE_FORBIDDEN",
  404: "OPTIMADE_NOT_FOUND",
  501: "OPTIMADE_NOT_IMPLEMENTED",
  553: "OPTIMADE_VERSION_NOT_SUPPORTED",
} as const;

const ADVICE: Readonly<Record<keyof typeof OPTIMADE_STATUS, string>> = {
  400: "Correct the request (filter, sort or paging arguments).",
  403: "The provider refused the request; a page_limit above its maximum is the usual cause, so request fewer entries per page.",
  404: "No such entry or endpoint; check the id.",
  501: "The provider does not implement this query feature; simplify the filter or sort.",
  553: "The provider does not serve this API version; recompile the source against its current base URL.",
};

/** Provider text as a message quotes it: at most 500 characters (the whole text stays in `details`). */
function quoted(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Transient statuses: retryable by the executor for read-only calls. */
function isTransient(status: number): boolean {
  return (
    status === 408 ||
    status === 425 ||
    status === 429 ||
    (status >= 500 && status <= 599 && !(status in OPTIMADE_STATUS) && status !== 505)
  );
}

interface ErrorObject {
  readonly status?: string;
  readonly title?: string;
  readonly detail?: string;
  readonly parameter?: string;
}

/** The JSON:API `errors` of a body, as far as they are well formed. */
function errorObjects(body: unknown): ErrorObject[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isRecord).map((error) => {
    const source = isRecord(error.source) ? error.source : {};
    return {
      ...(typeof error.status === "string" ? { status: error.status } : {}),
      ...(typeof error.title === "string" ? { title: error.title } : {}),
      ...(typeof error.detail === "string" ? { detail: error.detail } : {}),
      ...(typeof source.parameter === "string" ? { parameter: source.parameter } : {}),
    };
  });
}

/** The typed error of a non-success answer; `text` is the (bounded) body, possibly empty. */
export function statusError(
  route: string,
  status: number,
  text: string,
  retryAfter: string | undefined,
): InvocationError {
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const errors = errorObjects(body);
  const detail =
    errors
      .map((error) => error.detail ?? error.title)
      .filter((part): part is string => part !== undefined && part !== "")
      .join("; ") || (body === undefined ? text.slice(0, 500) : "");
  const parameter = errors.find((error) => error.parameter !== undefined)?.parameter;
  const details = {
    route,
    status,
    detail,
    errors,
    ...(parameter !== undefined ? { parameter } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
  const said = detail === "" ? "" : `: ${quoted(detail)}`;
  if (status in OPTIMADE_STATUS) {
    const known = status as keyof typeof OPTIMADE_STATUS;
    return new InvocationError(
      OPTIMADE_STATUS[known],
      `${route}: the OPTIMADE provider answered ${status}${said}. ${ADVICE[known]}`,
      details,
      { retryable: false },
    );
  }
  const retryable = isTransient(status);
  return new InvocationError(
    "HTTP_STATUS",
    `${route}: the OPTIMADE provider answered HTTP ${status}${said}.${retryable ? " The failure is transient; a read-only call may be retried." : ""}`,
    details,
    { retryable },
  );
}

/** Parses a success body and checks the envelope of one page (list) or entry (single). */
export function parseEnvelope(
  route: string,
  text: string,
  entryType: string,
  mode: "list" | "single",
): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvocationError(
      "RESPONSE_NOT_JSON",
      `${route}: the provider's response is not JSON.`,
      { route },
      { cause: error },
    );
  }
  const fail = (problem: string): never => {
    throw new InvocationError(
      "OUTPUT_SCHEMA_VIOLATION",
      `${route}: the provider's response is not a valid OPTIMADE ${mode === "list" ? "entry listing" : "single entry"} document: ${problem}. The provider changed or is misbehaving; run \`schemarouter check\`.`,
      { route, problem },
    );
  };
  if (!isRecord(body)) return fail("the document is not a JSON object");
  if (body.errors !== undefined) {
    const detail = errorObjects(body)
      .map((error) => error.detail ?? error.title ?? "")
      .filter((part) => part !== "")
      .join("; ");
    fail(`a success answer carries JSON:API errors${detail === "" ? "" : ` (${quoted(detail)})`}`);
  }
  if (!isRecord(body.meta)) fail("`meta` is missing or not an object");
  if (body.links !== undefined && body.links !== null && !isRecord(body.links))
    fail("`links` is not an object");
  const entries = mode === "list" ? body.data : body.data === null ? [] : [body.data];
  if (!Array.isArray(entries)) fail(mode === "list" ? "`data` is not a list" : "`data` is not an object");
  for (const [index, entry] of (entries as unknown[]).entries()) {
    const at = mode === "list" ? `data[${index}]` : "data";
    if (!isRecord(entry)) fail(`${at} is not a resource object`);
    const resource = entry as Record<string, unknown>;
    if (typeof resource.id !== "string") fail(`${at}.id is not a string`);
    if (resource.type !== entryType)
      fail(`${at}.type is ${JSON.stringify(resource.type)}, not "${entryType}"`);
    if (resource.attributes !== undefined && !isRecord(resource.attributes))
      fail(`${at}.attributes is not an object`);
  }
  if (mode === "list") nextLinkOf(body, fail);
  return body;
}

/** `links.next` of a page: a URL string, a JSON:API link object's `href`, or undefined at the end. */
export function nextLinkOf(envelope: Envelope, fail?: (problem: string) => never): string | undefined {
  const links = envelope.links;
  if (!isRecord(links)) return undefined;
  const next = links.next;
  if (next === undefined || next === null) return undefined;
  if (typeof next === "string") return next;
  if (isRecord(next) && typeof next.href === "string") return next.href;
  fail?.("`links.next` is neither a URL, a link object nor null");
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
