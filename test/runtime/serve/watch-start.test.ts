/**
 * The server's lock watch starts from the lockfile its router was read from (docs/serve.md, "Lock
 * changes"): a compile that finishes between `SchemaRouter.load()` and `createMcpServer()` is served
 * as soon as the server starts, not at the next change; an unchanged lock reloads nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { createMcpServer, type SchemaRouterMcpServer } from "../../../runtime/serve/index.js";
import { tempProject } from "../../helpers/project.js";

function documentWith(operations: readonly string[]) {
  const paths: Record<string, unknown> = {};
  for (const id of operations) {
    paths[`/${id}`] = {
      get: {
        operationId: id,
        summary: `The ${id}.`,
        responses: {
          "200": {
            description: "It.",
            content: {
              "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } },
            },
          },
        },
      },
    };
  }
  return { openapi: "3.1.0", info: { title: "Shelf", version: "1.0.0" }, paths };
}

// Listing tools needs a ready binding; nothing is called, so the address is never dialled.
const BINDINGS = { shelf: { baseUrl: "http://127.0.0.1:9" } };

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting for the server to reload");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("serve: the lock watch starts from the router's lockfile", () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function project(operations: readonly string[]) {
    const made = tempProject("serve-watch-start");
    writeFileSync(join(made.dir, "shelf.json"), JSON.stringify(documentWith(operations)));
    made.write({ sources: { shelf: { kind: "openapi", location: "shelf.json" } } });
    await compile({ config: made.configPath });
    return made;
  }

  /** A server that reloads from `dir`, and how many times it asked to. */
  async function serve(router: SchemaRouter, dir: string) {
    let reloads = 0;
    const server: SchemaRouterMcpServer = await createMcpServer(router, {
      log: () => undefined,
      reload: () => {
        reloads++;
        return SchemaRouter.load({ root: dir, bindings: BINDINGS });
      },
    });
    closing.push(() => server.close());
    return { server, reloads: () => reloads };
  }

  it("serves a lock compiled after the router was loaded, without another change", async () => {
    const made = await project(["book"]);
    // Verified whole at load: its artifacts are about to be replaced on disk.
    const router = await SchemaRouter.load({ root: made.dir, bindings: BINDINGS, verify: "full" });
    closing.push(() => router.close());
    // A compile finishes after load() and before the server watches.
    writeFileSync(join(made.dir, "shelf.json"), JSON.stringify(documentWith(["book", "shelf"])));
    await compile({ config: made.configPath });
    const { server } = await serve(router, made.dir);
    await waitFor(() => server.router !== router);
    expect(server.listTools().map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["shelf.book", "shelf.shelf"]),
    );
  });

  it("an unchanged lock is not reloaded at start", async () => {
    const made = await project(["book"]);
    const router = await SchemaRouter.load({ root: made.dir, bindings: BINDINGS });
    closing.push(() => router.close());
    const { server, reloads } = await serve(router, made.dir);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reloads()).toBe(0);
    expect(server.router).toBe(router);
  });
});
