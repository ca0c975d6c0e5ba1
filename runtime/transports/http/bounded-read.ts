/**
 * Bounded response reading (docs/trust-model.md §15): the declared Content-Length and the bytes actually
 * received are both checked against the limit before anything is decoded.
 */
import { InvocationError, InvocationUnavailableError } from "../../errors/errors.js";

/** A response body the reader may abandon: destroyed, with late errors absorbed. */
export type AbandonableBody = AsyncIterable<Uint8Array> & {
  destroy(error?: Error): unknown;
  on?(event: "error", listener: (error: unknown) => void): unknown;
};

/**
 * Lets go of a body that will not be read: destroys it, and absorbs the error an HTTP client may still
 * emit on it later (an abort or timeout of the finished request, the server resetting the connection),
 * which would otherwise be an unhandled `error` event that ends the user's process.
 */
export function abandonBody(body: AbandonableBody): void {
  body.on?.("error", () => undefined);
  body.destroy();
}

export async function readBounded(
  body: AbandonableBody,
  maxBytes: number,
  contentLength: string | undefined,
  route: string,
  signal?: AbortSignal,
): Promise<string> {
  const refused = declaredLengthError(contentLength, maxBytes, route);
  if (refused !== undefined) {
    abandonBody(body);
    throw refused;
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for await (const chunk of body) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        abandonBody(body);
        throw tooLarge(route, maxBytes, received);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    abandonBody(body);
    if (error instanceof InvocationError) throw error;
    const reason = signal?.aborted ? "timed out" : "was interrupted";
    throw new InvocationUnavailableError(
      `${route}: reading the response ${reason}.`,
      { route },
      { cause: error },
    );
  }
  return Buffer.concat(chunks, received).toString("utf8");
}

/**
 * The refusal a declared Content-Length earns before any body byte is kept: not a plain decimal
 * (RESPONSE_NOT_JSON) or over the limit (RESPONSE_TOO_LARGE); undefined when it is fine or absent.
 */
export function declaredLengthError(
  contentLength: string | undefined,
  maxBytes: number,
  route: string,
): InvocationError | undefined {
  if (contentLength === undefined) return undefined;
  const declared = Number(contentLength);
  // Plain digits (what servers send) need no regular expression; anything else takes the full check.
  if (!isDigits(contentLength) && (!/^\d+$/.test(contentLength.trim()) || !Number.isSafeInteger(declared))) {
    return new InvocationError("RESPONSE_NOT_JSON", `${route}: the response has an invalid Content-Length.`, {
      route,
      contentLength,
    });
  }
  return declared > maxBytes ? tooLarge(route, maxBytes, declared) : undefined;
}

/** A non-empty run of ASCII digits whose number is a safe integer (at most 15 digits). */
function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 15) return false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

export function tooLarge(route: string, maxBytes: number, size: number): InvocationError {
  return new InvocationError(
    "RESPONSE_TOO_LARGE",
    `${route}: the response is larger than the ${maxBytes}-byte limit (${size} bytes). Raise maxResponseBytes in the binding if this is expected.`,
    { route, maxBytes, size },
  );
}

/** A transport error's name and code for a message (never its text, which may echo a URL). */
export function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${error.name} ${code}` : error.name;
  }
  return "unknown error";
}
