/**
 * Hostile HTTP servers behind an OpenAPI tool (docs/trust-model.md §15; docs/runtime/transports.md):
 * lying lengths, floods, redirects, bad JSON, slow bodies, validation bombs, echoed secrets. Every
 * case ends in a result that passed output validation or a typed refusal, within the binding's small
 * timeout, and the binding's secret header appears in no error and no run event.
 */
import type { ServerResponse } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { isSchemaRouterError } from "../../runtime/errors/errors.js";
import type { JsonSchema } from "../../runtime/model/specs.js";
import type { RunEvent } from "../../runtime/traces/events.js";
import { cleanupAfterEach } from "../helpers/cleanup.js";
import { startServer } from "../helpers/http-server.js";
import { httpTool } from "../helpers/http-tool.js";

const CANARY = "CANARY-http-51d0";
const cleanups = cleanupAfterEach();
const tally = { cases: 0, ok: 0, refused: new Map<string, number>(), crashes: 0 };
afterAll(() => {
  const refused = [...tally.refused].map(([code, count]) => `${code} ${count}`).join(", ");
  console.log(
    `hostile HTTP responses: ${tally.cases} cases, ${tally.ok} validated results, refused: ${refused}; crashes ${tally.crashes}`,
  );
});

type Answer = (response: ServerResponse, body: string) => void;
interface Case {
  readonly name: string;
  readonly answer: Answer;
  readonly schema?: JsonSchema;
  /** The refusal code the case must end in; undefined when a validated result is fine too. */
  readonly code?: string;
}

const json =
  (status: number, text: string, headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(text);
  };
const big = (bytes: number) => `{"x":"${"a".repeat(bytes)}"}`;

const CASES: Case[] = [
  {
    name: "Content-Length larger than the body, then close",
    answer: (r) => {
      r.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      r.end('{"a":1}');
      r.socket?.destroy();
    },
    code: "INVOCATION_UNAVAILABLE",
  },
  {
    name: "Content-Length smaller than the body",
    answer: (r) => {
      r.writeHead(200, { "content-type": "application/json", "content-length": "3" });
      r.socket?.write('{"a":12345}');
      r.end();
    },
  },
  {
    name: "Content-Length over the limit",
    answer: (r) => {
      r.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
      r.write("{");
    },
    code: "RESPONSE_TOO_LARGE",
  },
  {
    name: "negative Content-Length",
    answer: (r) => {
      r.socket?.end("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: -5\r\n\r\n{}");
    },
  },
  {
    name: "non-numeric Content-Length",
    answer: (r) => {
      r.socket?.end("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: abc\r\n\r\n{}");
    },
  },
  {
    name: "chunked flood past the limit",
    answer: (r) => {
      r.writeHead(200, { "content-type": "application/json" });
      const chunk = "a".repeat(64 * 1024);
      const pump = () => {
        for (let i = 0; i < 8; i++) if (!r.write(chunk)) return r.once("drain", pump);
        setImmediate(pump);
      };
      r.write('{"x":"');
      pump();
    },
    code: "RESPONSE_TOO_LARGE",
  },
  { name: "a body just over the limit", answer: json(200, big(70 * 1024)), code: "RESPONSE_TOO_LARGE" },
  {
    name: "redirect to another origin",
    answer: json(302, "{}", { location: "http://evil.example/steal" }),
    code: "TRANSPORT_REFUSED",
  },
  {
    name: "redirect to the same origin",
    answer: json(307, "{}", { location: "/items2" }),
    code: "TRANSPORT_REFUSED",
  },
  {
    name: "301 with a huge body",
    answer: json(301, big(60 * 1024), { location: "/x" }),
    code: "TRANSPORT_REFUSED",
  },
  { name: "bad JSON", answer: json(200, '{"a":'), code: "RESPONSE_NOT_JSON" },
  {
    name: "HTML instead of JSON",
    answer: (r) => {
      r.writeHead(200, { "content-type": "text/html" });
      r.end("<html>hi</html>");
    },
    code: "RESPONSE_NOT_JSON",
  },
  { name: "empty body with 200", answer: json(200, "") },
  { name: "JSON with a BOM", answer: json(200, '\ufeff{"a":1}') },
  {
    name: "deeply nested JSON",
    answer: json(200, `${"[".repeat(5000)}${"]".repeat(5000)}`),
    schema: { type: "array" },
  },
  {
    name: "a number that overflows",
    answer: json(200, '{"n":1e999}'),
    schema: { type: "object", properties: { n: { type: "number" } } },
    code: "OUTPUT_SCHEMA_VIOLATION",
  },
  {
    name: "a validation bomb: url format on a long string",
    answer: json(200, JSON.stringify({ u: `http://${":".repeat(60_000)}` })),
    schema: { type: "object", properties: { u: { type: "string", format: "url" } } },
    code: "OUTPUT_SCHEMA_VIOLATION",
  },
  {
    name: "a validation bomb: uniqueItems over objects",
    answer: json(200, JSON.stringify(Array.from({ length: 8000 }, (_, i) => ({ i, t: [i] })))),
    schema: { type: "array", uniqueItems: true },
  },
  {
    name: "a validation bomb: catastrophic pattern",
    answer: json(200, JSON.stringify({ s: `${"a".repeat(50_000)}!` })),
    schema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } },
    code: "OUTPUT_SCHEMA_VIOLATION",
  },
  {
    name: "the wrong type at the root",
    answer: json(200, "[1,2]"),
    schema: { type: "object" },
    code: "OUTPUT_SCHEMA_VIOLATION",
  },
  {
    name: "__proto__ and constructor keys",
    answer: json(200, '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
    schema: { type: "object" },
  },
  {
    name: "500 echoing the credential",
    answer: (r, body) => json(500, JSON.stringify({ error: `bad token ${CANARY}`, body }))(r, body),
    code: "HTTP_STATUS",
  },
  {
    name: "401 echoing request headers",
    answer: json(401, JSON.stringify({ headers: `authorization: Bearer ${CANARY}` })),
    code: "HTTP_STATUS",
  },
  {
    name: "429 with an absurd Retry-After",
    answer: json(429, "{}", { "retry-after": "99999999999" }),
    code: "HTTP_STATUS",
  },
  {
    name: "503 with a malformed Retry-After",
    answer: json(503, "{}", { "retry-after": "soon" }),
    code: "HTTP_STATUS",
  },
  {
    name: "headers only, no body ever (slow body)",
    answer: (r) => {
      r.writeHead(200, { "content-type": "application/json" });
      r.write("{");
    },
    code: "INVOCATION_UNAVAILABLE",
  },
  { name: "no answer at all", answer: () => undefined, code: "INVOCATION_UNAVAILABLE" },
  {
    name: "connection reset before headers",
    answer: (r) => r.socket?.destroy(),
    code: "INVOCATION_UNAVAILABLE",
  },
  {
    name: "a 1xx flood then nothing",
    answer: (r) => {
      for (let i = 0; i < 50; i++) r.writeProcessing();
    },
    code: "INVOCATION_UNAVAILABLE",
  },
  {
    name: "thousands of response headers",
    answer: (r) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      for (let i = 0; i < 3000; i++) headers[`x-h${i}`] = "v";
      r.writeHead(200, headers);
      r.end("{}");
    },
  },
  {
    name: "an invalid status line",
    answer: (r) => r.socket?.end("HTTP/1.1 999999 NOPE\r\n\r\n"),
    code: "INVOCATION_UNAVAILABLE",
  },
  {
    name: "not HTTP at all",
    answer: (r) => r.socket?.end("SSH-2.0-OpenSSH\r\n"),
    code: "INVOCATION_UNAVAILABLE",
  },
];

describe("hostile HTTP responses", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, hostile) => {
    tally.cases++;
    const server = await startServer((_request, response, body) => hostile.answer(response, body));
    cleanups.push(() => server.close());
    const { router, call } = httpTool(server.url, cleanups, {
      endpoint: { outputSchema: hostile.schema ?? {} },
      binding: { headers: { "x-api-key": CANARY }, timeoutMs: 400, maxResponseBytes: 64 * 1024 },
    });
    // Every run event, as a trace store would persist it.
    const events: RunEvent[] = [];
    const traceStore = {
      append: async (event: RunEvent) => void events.push(event),
      readRun: async () => [],
      listRuns: async () => [],
      close: async () => undefined,
    };
    let outcome: unknown;
    try {
      await router.invoke(call(), { traceStore });
      outcome = "ok";
    } catch (error) {
      outcome = error;
    }
    expect(events.at(-1)?.type).toMatch(/^run\.(end|error)$/);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    if (outcome === "ok") {
      tally.ok++;
      if (hostile.code !== undefined) throw new Error(`expected ${hostile.code}, the call succeeded`);
      return;
    }
    if (!isSchemaRouterError(outcome)) {
      tally.crashes++;
      throw outcome;
    }
    tally.refused.set(outcome.code, (tally.refused.get(outcome.code) ?? 0) + 1);
    expect(outcome.message).not.toContain(CANARY);
    expect(JSON.stringify(outcome.details)).not.toContain(CANARY);
    if (hostile.code !== undefined) expect(outcome.code).toBe(hostile.code);
  });
});
