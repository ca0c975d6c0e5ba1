/**
 * JSON-RPC 2.0 envelopes (JSON-RPC 2.0 §4 Request object, §5 Response object; docs/sources/openrpc.md
 * "Transport"): the request with its id and params by name or by position, and the checks a response
 * must pass before its `result` is used: `jsonrpc` "2.0", the request's id exactly, exactly one of
 * `result` and `error`, and an error object with an integer code and a string message.
 */
import { CallRefusedError, InvocationError } from "../../errors/errors.js";
import type { EndpointSpec } from "../../model/specs.js";

/** Longest server message kept in an error (the rest is cut). */
const MAX_RPC_MESSAGE = 200;
/** Largest `data` (as JSON text) kept in an error's details. */
const MAX_RPC_DATA = 2048;

const STANDARD_ERRORS: Readonly<Record<number, string>> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
};

/** The request body of one call (never a batch: docs/sources/openrpc.md "Batching"). */
export function requestBodyOf(
  endpoint: EndpointSpec,
  args: Readonly<Record<string, unknown>>,
  id: number,
  route: string,
): string {
  const execution = endpoint.execution;
  if (execution.kind !== "openrpc") throw new TypeError("not an OpenRPC endpoint");
  let params: unknown[] | Record<string, unknown>;
  if (execution.paramStructure === "by-name") {
    const named: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const parameter of endpoint.parameters) {
      const value = args[parameter.name];
      if (value !== undefined) named[parameter.wireName ?? parameter.name] = value;
    }
    params = named;
  } else {
    const given = endpoint.parameters.map((parameter) => args[parameter.name]);
    let last = given.length - 1;
    while (last >= 0 && given[last] === undefined) last--;
    const positional = given.slice(0, last + 1);
    const gap = positional.indexOf(undefined);
    if (gap !== -1) {
      const missing = endpoint.parameters[gap]!.name;
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: params go by position, so "${missing}" must be given when a later param is; pass it (or leave out the params after it).`,
        { route, argument: missing },
      );
    }
    params = positional;
  }
  return JSON.stringify({ jsonrpc: "2.0", id, method: execution.rpcMethod, params });
}

type Reason =
  | "not-object"
  | "batch"
  | "version"
  | "id-missing"
  | "id-mismatch"
  | "result-and-error"
  | "no-result"
  | "error-shape";

const WHY: Readonly<Record<Reason, string>> = {
  "not-object": "is not a JSON-RPC response object",
  batch: "is a batch (an array), but one request was sent",
  version: 'does not say "jsonrpc": "2.0"',
  "id-missing": "carries no id",
  "id-mismatch": "carries another request's id",
  "result-and-error": "carries both a result and an error",
  "no-result": "carries neither a result nor an error",
  "error-shape": "carries an error that is not an object with an integer code and a string message",
};

function invalid(route: string, reason: Reason): InvocationError<"JSONRPC_RESPONSE_INVALID"> {
  return new InvocationError(
    "JSONRPC_RESPONSE_INVALID",
    `${route}: the server's answer ${WHY[reason]}; it is not used.`,
    { route, reason },
  );
}

/** Server text made safe to show: control characters replaced, length bounded. */
function untrustedText(text: string, redact: (text: string) => string): string {
  const cleaned = [...redact(text)]
    .map((char) => {
      const code = char.codePointAt(0)!;
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : char;
    })
    .join("");
  return cleaned.length > MAX_RPC_MESSAGE ? `${cleaned.slice(0, MAX_RPC_MESSAGE)}…` : cleaned;
}

/**
 * The `result` of a valid response to request `id`; a JSON-RPC error becomes JSONRPC_ERROR, any
 * other answer JSONRPC_RESPONSE_INVALID. `redact` removes trusted header values from server text.
 */
export function resultOf(
  route: string,
  answer: unknown,
  id: number,
  redact: (text: string) => string,
  status?: number,
): unknown {
  if (Array.isArray(answer)) throw invalid(route, "batch");
  if (answer === null || typeof answer !== "object") throw invalid(route, "not-object");
  const envelope = answer as Record<string, unknown>;
  if (envelope.jsonrpc !== "2.0") throw invalid(route, "version");
  if (!Object.hasOwn(envelope, "id") || envelope.id === null) throw invalid(route, "id-missing");
  if (envelope.id !== id) throw invalid(route, "id-mismatch");
  const hasResult = Object.hasOwn(envelope, "result");
  const hasError = Object.hasOwn(envelope, "error");
  if (hasResult && hasError) throw invalid(route, "result-and-error");
  if (hasResult) return envelope.result;
  if (!hasError) throw invalid(route, "no-result");
  const error = envelope.error;
  if (error === null || typeof error !== "object" || Array.isArray(error))
    throw invalid(route, "error-shape");
  const { code, message, data } = error as Record<string, unknown>;
  if (typeof code !== "number" || !Number.isSafeInteger(code) || typeof message !== "string")
    throw invalid(route, "error-shape");
  const said = untrustedText(message, redact);
  const standard = STANDARD_ERRORS[code];
  let kept: unknown;
  if (data !== undefined) {
    const text = redact(JSON.stringify(data) ?? "");
    try {
      if (text.length <= MAX_RPC_DATA) kept = JSON.parse(text) as unknown;
    } catch {
      // Redaction cut through the JSON text: the data is left out.
    }
  }
  throw new InvocationError(
    "JSONRPC_ERROR",
    `${route}: the server answered JSON-RPC error ${code}${standard !== undefined ? ` (${standard})` : ""}: ${said}`,
    {
      route,
      rpcCode: code,
      rpcMessage: said,
      ...(kept !== undefined ? { data: kept } : {}),
      ...(status !== undefined ? { status } : {}),
    },
  );
}
