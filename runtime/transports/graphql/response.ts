/**
 * Reads a GraphQL response (GraphQL spec §7 "Response"; docs/sources/graphql.md "Responses"): `errors`
 * without `data` is the tool's error, `data` with `errors` is a partial result (refused unless the
 * source allows partial results), anything that is not a response object is refused. Error messages
 * are remote text: control characters are removed, each is shortened, a few are kept, and trusted
 * credential values are replaced before they reach a message.
 */
import { InvocationError } from "../../errors/errors.js";
import { redactSecrets } from "../http/redact-secrets.js";

/** Error messages kept in a TOOL_ERROR, and characters kept of each. */
const MAX_MESSAGES = 5;
const MAX_MESSAGE_CHARS = 300;

export function readGraphqlResponse(
  body: string,
  route: string,
  partialResults: boolean,
  secrets: readonly string[],
): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new InvocationError(
      "RESPONSE_NOT_JSON",
      `${route}: the GraphQL response is not JSON.`,
      { route },
      {
        cause: error,
      },
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw notAResponse(route, "it is not a JSON object");
  const response = parsed as { data?: unknown; errors?: unknown };
  const data = response.data;
  if (data !== undefined && data !== null && (typeof data !== "object" || Array.isArray(data)))
    throw notAResponse(route, "`data` is not an object");
  if (response.errors !== undefined && !Array.isArray(response.errors))
    throw notAResponse(route, "`errors` is not a list");
  const errors = (response.errors ?? []) as unknown[];
  const hasData = data !== undefined && data !== null;
  if (errors.length === 0) {
    if (!hasData) throw notAResponse(route, "it has neither `data` nor `errors`");
    return data;
  }
  const messages = messagesOf(errors, secrets);
  const listed = messages.map((message) => JSON.stringify(message)).join("; ");
  if (!hasData) {
    throw new InvocationError(
      "TOOL_ERROR",
      `${route}: the GraphQL server answered with errors and no data (untrusted server text): ${listed}`,
      { route, reason: "graphql-errors", messages },
      { retryable: false },
    );
  }
  if (!partialResults) {
    throw new InvocationError(
      "TOOL_ERROR",
      `${route}: the GraphQL server answered with partial data and errors, which this source does not accept (set "partialResults": true on the source to accept them). Errors (untrusted server text): ${listed}`,
      { route, reason: "graphql-partial", messages },
      { retryable: false },
    );
  }
  return data;
}

function messagesOf(errors: readonly unknown[], secrets: readonly string[]): string[] {
  const out: string[] = [];
  for (const error of errors.slice(0, MAX_MESSAGES)) {
    const raw =
      error !== null &&
      typeof error === "object" &&
      typeof (error as { message?: unknown }).message === "string"
        ? (error as { message: string }).message
        : "(an error without a message)";
    // Control characters (line breaks included) never reach a message as they came.
    const plain = plainText(redactSecrets(raw, secrets));
    out.push(plain.length > MAX_MESSAGE_CHARS ? `${plain.slice(0, MAX_MESSAGE_CHARS)}…` : plain);
  }
  if (errors.length > MAX_MESSAGES) out.push(`(${errors.length - MAX_MESSAGES} more errors)`);
  return out;
}

function notAResponse(route: string, problem: string): InvocationError {
  return new InvocationError(
    "TOOL_ERROR",
    `${route}: the server's answer is not a GraphQL response (${problem}).`,
    { route, reason: "graphql-response" },
    { retryable: false },
  );
}

/** Remote text with every control character (line breaks included) replaced by a space. */
export function plainText(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : char;
  }
  return out;
}
