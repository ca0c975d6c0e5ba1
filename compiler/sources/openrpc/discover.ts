/**
 * `rpc.discover` at build time (OpenRPC "Service Discovery Method", docs/sources/openrpc.md "Sources"):
 * one JSON-RPC 2.0 request POSTed to the endpoint, bounded in bytes and time, redirects refused, and
 * the answer checked like every JSON-RPC response (version, the same id, exactly one of result/error).
 */
import { sanitizeLocation } from "schemarouter/internal";
// undici is loaded on the first discover call, so a compile of local documents never loads it.
import { SourceError } from "../../errors/errors.js";
import { checkSourceUrl } from "../fetch.js";
import { checkDocumentDepth } from "../openapi/document-depth.js";

export const DISCOVER_LIMITS = { maxBytes: 16 * 1024 * 1024, timeoutMs: 30_000 } as const;

/** The id of the one discover request; the answer must carry it back. */
const DISCOVER_ID = 1;

export async function callDiscover(
  source: string,
  endpoint: string,
  headers: Readonly<Record<string, string>>,
  allowInsecureHttp: boolean,
  limits: { readonly maxBytes: number; readonly timeoutMs: number } = DISCOVER_LIMITS,
): Promise<unknown> {
  const url = checkSourceUrl(source, endpoint, allowInsecureHttp);
  const shown = sanitizeLocation(url.href);
  const failed = (message: string, details: { status?: number } = {}, cause?: unknown) =>
    new SourceError(source, "SOURCE_FETCH_FAILED", message, details, cause === undefined ? {} : { cause });
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const { request } = await import("undici");
  let text: string;
  try {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: DISCOVER_ID, method: "rpc.discover", params: [] }),
      signal,
    });
    const status = response.statusCode;
    if (status < 200 || status >= 300) {
      response.body.on("error", () => undefined);
      response.body.destroy();
      throw failed(
        status >= 300 && status < 400
          ? `rpc.discover at ${shown} answered a redirect (${status}); redirects are not followed. Point "discover" at the final URL.`
          : `rpc.discover at ${shown} answered HTTP ${status}.`,
        { status },
      );
    }
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      response.body.on("error", () => undefined);
      response.body.destroy();
      throw new SourceError(
        source,
        "SOURCE_TOO_LARGE",
        `the rpc.discover answer is ${declared} bytes, over the ${limits.maxBytes}-byte limit.`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).byteLength;
      if (size > limits.maxBytes) {
        response.body.on("error", () => undefined);
        response.body.destroy();
        throw new SourceError(
          source,
          "SOURCE_TOO_LARGE",
          `the rpc.discover answer exceeds the ${limits.maxBytes}-byte limit.`,
        );
      }
      chunks.push(chunk as Buffer);
    }
    text = Buffer.concat(chunks, size).toString("utf8");
  } catch (error) {
    if (error instanceof SourceError) throw error;
    const name = error instanceof Error ? ((error as { code?: string }).code ?? error.name) : "error";
    throw failed(
      `rpc.discover at ${shown} failed (${name}); check the URL and that the server is up.`,
      {},
      error,
    );
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `the rpc.discover answer is not JSON: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  checkDocumentDepth(source, answer, "the rpc.discover answer");
  const invalid = (why: string) =>
    new SourceError(source, "SOURCE_INVALID", `the rpc.discover answer ${why}; it is not used.`);
  if (answer === null || typeof answer !== "object" || Array.isArray(answer))
    throw invalid("is not a JSON-RPC response object");
  const envelope = answer as Record<string, unknown>;
  if (envelope.jsonrpc !== "2.0") throw invalid('does not say "jsonrpc": "2.0"');
  if (envelope.id !== DISCOVER_ID) throw invalid(`does not carry the request's id (${DISCOVER_ID})`);
  const hasResult = Object.hasOwn(envelope, "result");
  const hasError = Object.hasOwn(envelope, "error");
  if (hasResult && hasError) throw invalid("carries both a result and an error");
  if (hasError) {
    const error = envelope.error as Record<string, unknown> | null;
    const code = error !== null && typeof error === "object" ? error.code : undefined;
    // The server's message is untrusted text: only its code is shown.
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `rpc.discover at ${shown} answered JSON-RPC error ${typeof code === "number" ? code : "(no code)"}; the server may not implement service discovery. Point "location" at the document instead.`,
    );
  }
  if (!hasResult) throw invalid("carries neither a result nor an error");
  return envelope.result;
}
