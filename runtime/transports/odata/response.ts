/**
 * OData response bodies (OData JSON Format v4.01 §21 "Error Response", §12 "Collection of
 * Entities"): error bodies `{"error":{"code","message"}}` become ODATA_ERROR with the service's text
 * kept as untrusted data (quoted, shortened in messages), and success bodies are parsed and checked
 * for the collection envelope before pages are merged.
 */
import { InvocationError } from "../../errors/errors.js";

/** Transient statuses: retryable by the executor for read-only calls. */
function isTransient(status: number): boolean {
  return (
    status === 408 ||
    status === 425 ||
    status === 429 ||
    (status >= 500 && status <= 599 && status !== 501 && status !== 505)
  );
}

const ADVICE: Readonly<Record<number, string>> = {
  400: "Correct the arguments (filter values, key, parameters).",
  401: "The service needs credentials: give trusted headers in the binding.",
  403: "The service refused the request for these credentials.",
  404: "No such entity or resource; check the key.",
  501: "The service does not implement this request (a query option or operation).",
};

/** Untrusted text as a message quotes it: one line, at most 300 characters, in quotes. */
function quoted(text: string): string {
  let line = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    // Control characters and line separators would let the service's text forge lines of a log.
    line += code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : char;
  }
  line = line.replace(/ {2,}/g, " ").trim();
  return JSON.stringify(line.length > 300 ? `${line.slice(0, 300)}…` : line);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The typed error of a non-success answer; `text` is the (bounded, redacted) body, possibly empty. */
export function odataError(
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
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const odataCode = typeof error?.code === "string" ? error.code.slice(0, 200) : "";
  const detail =
    typeof error?.message === "string"
      ? error.message.slice(0, 2000)
      : error === undefined
        ? text.slice(0, 500)
        : "";
  const retryable = isTransient(status);
  const said = [
    odataCode === "" ? "" : ` code ${quoted(odataCode)}`,
    detail === "" ? "" : ` message ${quoted(detail)}`,
  ].join("");
  return new InvocationError(
    "ODATA_ERROR",
    `${route}: the OData service answered HTTP ${status}${said === "" ? "" : ` (service text, untrusted:${said})`}. ${
      ADVICE[status] ?? (retryable ? "The failure is transient; a read-only call may be retried." : "")
    }`.trimEnd(),
    { route, status, odataCode, detail, ...(retryAfter !== undefined ? { retryAfter } : {}) },
    { retryable },
  );
}

/** Parses a success body; a collection must carry a `value` array and at most a string next link. */
export function parseBody(route: string, text: string, collection: boolean): unknown {
  let body: unknown;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch (error) {
    throw new InvocationError(
      "RESPONSE_NOT_JSON",
      `${route}: the OData service's response is not JSON.`,
      { route },
      { cause: error },
    );
  }
  if (!collection) return body;
  const fail = (problem: string): never => {
    throw new InvocationError(
      "OUTPUT_SCHEMA_VIOLATION",
      `${route}: the OData service's response is not a collection document: ${problem}. The service changed or is misbehaving; run \`schemarouter check\`.`,
      { route, problem },
    );
  };
  if (!isRecord(body)) return fail("the document is not a JSON object");
  if (!Array.isArray(body.value)) fail("`value` is not an array");
  const next = body["@odata.nextLink"];
  if (next !== undefined && next !== null && typeof next !== "string")
    fail("`@odata.nextLink` is not a string");
  return body;
}
