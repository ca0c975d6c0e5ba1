/**
 * Full `tools/list` (MCP spec, Server features § Tools, with Utilities § Pagination): follows
 * `nextCursor` until the last page, bounded in pages, and returns every definition exactly as the
 * server sent it (the SDK's `listTools` re-parses definitions and drops unknown keys; this does not).
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ErrorDetailsOf, SchemaRouterError } from "../../errors/errors.js";
import { loadPeer, MCP_SDK } from "../../errors/optional-peer.js";
import type { JsonObject } from "../../model/specs.js";
import type { McpClientLike } from "./client-like.js";

export const MCP_DEFAULT_MAX_LIST_PAGES = 100;
export const MCP_DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ListToolsOptions {
  readonly timeoutMs?: number;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/** A listed tool definition as received (untrusted data; only `name` is known to be a string). */
export type ListedTool = JsonObject & { readonly name: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function listFailed(
  message: string,
  details: ErrorDetailsOf<"MCP_LIST_FAILED"> = {},
  cause?: unknown,
): SchemaRouterError<"MCP_LIST_FAILED"> {
  return new SchemaRouterError(
    "MCP_LIST_FAILED",
    message,
    details,
    cause === undefined ? undefined : { cause },
  );
}

/** Lists every tool of the server, all pages. Throws `MCP_LIST_FAILED` (with the cause) on any failure. */
export async function listAllTools(
  connected: McpClientLike,
  options: ListToolsOptions = {},
): Promise<ListedTool[]> {
  const { ResultSchema } = await loadPeer(
    MCP_SDK,
    "An MCP binding",
    () => import("@modelcontextprotocol/sdk/types.js"),
  );
  // A factory's client is an SDK Client (McpClientLike is its public structural shape).
  const client = connected as unknown as Client;
  const maxPages = options.maxPages ?? MCP_DEFAULT_MAX_LIST_PAGES;
  const tools: ListedTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw listFailed(
        `tools/list did not end within ${maxPages} pages; the server's pagination does not terminate.`,
        {
          pages: page,
        },
      );
    }
    let result: Record<string, unknown>;
    try {
      result = await client.request(
        cursor === undefined ? { method: "tools/list" } : { method: "tools/list", params: { cursor } },
        ResultSchema,
        {
          timeout: options.timeoutMs ?? MCP_DEFAULT_REQUEST_TIMEOUT_MS,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
    } catch (error) {
      throw listFailed(
        `tools/list failed on page ${page + 1}: ${(error as Error).message}`,
        { page: page + 1 },
        error,
      );
    }
    const listed = result.tools;
    if (!Array.isArray(listed))
      throw listFailed(`tools/list page ${page + 1} has no "tools" array.`, { page: page + 1 });
    for (const [index, def] of listed.entries()) {
      if (!isRecord(def) || typeof def.name !== "string" || def.name === "") {
        throw listFailed(`tools/list page ${page + 1} item ${index} has no tool name.`, {
          page: page + 1,
          index,
        });
      }
      tools.push(def as ListedTool);
    }
    const next = result.nextCursor;
    if (next === undefined || next === null) return tools;
    if (typeof next !== "string")
      throw listFailed(`tools/list page ${page + 1} has a non-string nextCursor.`);
    if (seenCursors.has(next))
      throw listFailed(`tools/list repeated cursor on page ${page + 1}; pagination loops.`);
    seenCursors.add(next);
    cursor = next;
  }
}
