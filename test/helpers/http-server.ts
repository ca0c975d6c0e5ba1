/**
 * A tiny real node:http test server on 127.0.0.1 (port 0) with a request log. The handler runs after
 * the request body has been read; every request is logged before the handler sees it.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoggedRequest {
  readonly method: string;
  /** Path and query exactly as they arrived on the request line (not normalized). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body's bytes (multipart file parts are not UTF-8 text). */
  readonly rawBody: Buffer;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => unknown;

export interface TestServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in arrival order. */
  readonly requests: LoggedRequest[];
  /** Stops listening and destroys open connections (including ones a handler never answered). */
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: LoggedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const body = rawBody.toString("utf8");
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
        rawBody,
      });
      Promise.resolve(handler(request, response, body)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers with a JSON body and an explicit Content-Length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
