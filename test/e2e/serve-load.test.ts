/**
 * Load on `schemarouter/serve` over Streamable HTTP: 32 concurrent sessions × 100 tools/call (four
 * lanes per session) against a local upstream that echoes who asked. No response is dropped or
 * given to the wrong caller, every session's budget admits exactly its limit, the upstream sees
 * exactly the admitted calls, and after the sessions close none is left and the heap is flat.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import {
  createMcpServer,
  type HttpServeHandle,
  type SchemaRouterMcpServer,
} from "../../runtime/serve/index.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { tempProject } from "../helpers/project.js";

const SESSIONS = 32;
const CALLS = 100;
const LANES = 4;
const BUDGET = 75;

const ECHO_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Echo", version: "1.0.0" },
  paths: {
    "/echo/{session}/{n}": {
      get: {
        operationId: "echo",
        parameters: [
          { name: "session", in: "path", required: true, schema: { type: "string" } },
          { name: "n", in: "path", required: true, schema: { type: "integer" } },
        ],
        responses: {
          "200": {
            description: "Who asked.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { session: { type: "string" }, n: { type: "integer" } },
                  required: ["session", "n"],
                },
              },
            },
          },
        },
      },
    },
  },
};

interface Round {
  readonly ok: number;
  readonly refused: number;
  readonly mixedUp: number;
  readonly other: string[];
}

describe("serve under load", () => {
  let upstream: TestServer;
  let router: SchemaRouter;
  let served: SchemaRouterMcpServer;
  let http: HttpServeHandle;

  beforeAll(async () => {
    const project = tempProject("serve-load");
    writeFileSync(join(project.dir, "echo.json"), JSON.stringify(ECHO_DOCUMENT));
    project.write({ sources: { echo: { kind: "openapi", location: "echo.json" } } });
    await compile({ config: project.configPath });
    upstream = await startServer((request, response) => {
      const [, , session, n] = (request.url ?? "").split("/");
      sendJson(response, 200, { session, n: Number(n) });
    });
    router = await SchemaRouter.load({ root: project.dir, bindings: { echo: { baseUrl: upstream.url } } });
    served = await createMcpServer(router, {
      sessionBudget: { maxCalls: BUDGET },
      maxConcurrentCalls: 32,
      log: () => undefined,
    });
    http = await served.listen({ port: 0 });
  });
  afterAll(async () => {
    await served?.close();
    await router?.close();
    await upstream?.close();
  });

  async function round(tag: string, calls = CALLS): Promise<Round> {
    const results = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, index) => {
        const name = `${tag}-${index}`;
        const client = new Client({ name, version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(http.url));
        await client.connect(transport);
        const outcome: Round = { ok: 0, refused: 0, mixedUp: 0, other: [] };
        await Promise.all(
          Array.from({ length: LANES }, async (__, lane) => {
            for (let i = lane; i < calls; i += LANES) {
              const result = await client.callTool({ name: "echo.echo", arguments: { session: name, n: i } });
              if (result.isError === true) {
                const refusal = JSON.parse((result.content as { text: string }[])[0]!.text) as {
                  code: string;
                };
                if (refusal.code === "BUDGET_EXCEEDED") (outcome as { refused: number }).refused++;
                else outcome.other.push(refusal.code);
              } else {
                const data = result.structuredContent as { session: string; n: number };
                if (data.session === name && data.n === i) (outcome as { ok: number }).ok++;
                else (outcome as { mixedUp: number }).mixedUp++;
              }
            }
          }),
        );
        await transport.terminateSession();
        await client.close();
        return outcome;
      }),
    );
    return {
      ok: results.reduce((sum, r) => sum + r.ok, 0),
      refused: results.reduce((sum, r) => sum + r.refused, 0),
      mixedUp: results.reduce((sum, r) => sum + r.mixedUp, 0),
      other: results.flatMap((r) => r.other),
    };
  }

  it("answers every call of 32 sessions correctly, admits exactly each session's budget, and frees the sessions", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heap = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      return process.memoryUsage().heapUsed;
    };
    // Every session the server makes, held weakly: after they close, none may stay reachable.
    const sessions: WeakRef<object>[] = [];
    const make = served.session.bind(served);
    served.session = (...args) => {
      const session = make(...args);
      sessions.push(new WeakRef(session));
      return session;
    };

    // Warm-up: connection pools, JIT, the SDK's caches.
    expect((await round("warm", 8)).ok).toBe(SESSIONS * 8);
    upstream.requests.length = 0;
    const before = await heap();

    const result = await round("load");
    expect(result).toEqual({
      ok: SESSIONS * BUDGET,
      refused: SESSIONS * (CALLS - BUDGET),
      mixedUp: 0,
      other: [],
    });
    expect(upstream.requests.length).toBe(SESSIONS * BUDGET);
    expect(http.sessions).toBe(0);
    expect(served.sessionCount).toBe(0);
    upstream.requests.length = 0;
    const after = await heap();
    expect(sessions).toHaveLength(2 * SESSIONS);
    expect(sessions.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect((after - before) / 2 ** 20).toBeLessThan(8);
  });
});
