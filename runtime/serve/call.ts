/**
 * `tools/call` (docs/serve.md): `search_capabilities` lists tools and executes nothing; a capability
 * call takes a slot of the server's concurrency bound, is admitted by the session budget, and runs
 * through `router.invoke()` as the agents' pinned tool does (fingerprints and fields fixed when the
 * catalog was built), with the MCP session id as run metadata. The whole call uses the catalog that
 * was current when it started, so it sees the old or the new registry, never a mix. A name that is no
 * tool of the catalog is a protocol error (`-32602`), as the MCP specification says.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { SEARCH_TOOL_NAME } from "../agents/dynamic.js";
import { refusalOf } from "../agents/refusal.js";
import { executeTool } from "../agents/tool-set.js";
import { isSchemaRouterError } from "../errors/errors.js";
import type { RunConfig } from "../governed/config.js";
import { CallObserver, type EventSink, logs } from "./observer.js";
import { refusalResult, resultOf, type ServedResult } from "./result.js";
import type { Sdk } from "./sdk.js";
import type { ServeSession } from "./session.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface CallParams {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined;
}

const MAX_SHOWN_NAME = 128;

export async function callTool(
  session: ServeSession,
  params: CallParams,
  extra: Extra,
  sdk: Sdk,
): Promise<ServedResult> {
  const { state } = session;
  const { catalog, release } = state.enter();
  try {
    if (params.name === SEARCH_TOOL_NAME && catalog.search !== undefined) {
      const outcome = catalog.selection.runSearch(params.arguments ?? {});
      if (outcome.ok && catalog.listing !== undefined) {
        const before = session.discovered.size;
        for (const tool of outcome.data.tools) session.discovered.add(tool.name);
        if (session.discovered.size > before) session.notifyListChanged();
      }
      return resultOf(outcome, false);
    }
    const served = catalog.tools.get(params.name);
    const tool = catalog.set.get(params.name);
    if (served === undefined || tool === undefined) {
      throw new sdk.types.McpError(
        sdk.types.ErrorCode.InvalidParams,
        `Unknown tool: ${JSON.stringify(String(params.name).slice(0, MAX_SHOWN_NAME))}. Call tools/list for the tools of this server.`,
      );
    }
    let free: () => void;
    try {
      free = await state.limiter.acquire(extra.signal);
    } catch (error) {
      if (isSchemaRouterError(error)) return refusalResult(refusalOf(error, { name: tool.name }));
      throw error;
    }
    try {
      const registered = catalog.router.registry.get(tool.tool);
      try {
        session.budget.admit({
          route: tool.route,
          tool: tool.tool,
          remote: registered?.tool.remote === true,
        });
      } catch (error) {
        return refusalResult(refusalOf(error, { name: tool.name, parameters: tool.parameters }));
      }
      const outcome = await executeTool(
        catalog.router,
        tool,
        params.arguments ?? {},
        runConfig(session, params, extra),
      );
      return resultOf(outcome, served.wrapped);
    } finally {
      free();
    }
  } finally {
    release();
  }
}

function runConfig(session: ServeSession, params: CallParams, extra: Extra): RunConfig {
  const { options } = session.state;
  const token = params._meta?.progressToken;
  const sink: EventSink = {
    ...(token !== undefined
      ? {
          progress: (progress: number, message: string) =>
            extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress, message },
              })
              .catch(() => undefined),
        }
      : {}),
    ...(session.logLevel !== undefined
      ? {
          logLevel: session.logLevel,
          log: (level, data) =>
            extra
              .sendNotification({
                method: "notifications/message",
                params: { level, logger: "schemarouter", data },
              })
              .catch(() => undefined),
        }
      : {}),
  } satisfies EventSink;
  const observed =
    options.traceStore !== undefined || token !== undefined || logs(session.logLevel, "warning");
  return {
    tags: ["mcp"],
    metadata: { mcpSessionId: session.id, mcpTransport: session.transport, mcpTool: params.name },
    signal: extra.signal,
    ...(options.callBudget !== undefined ? { budget: options.callBudget } : {}),
    ...(options.includePayloads ? { includePayloads: true } : {}),
    ...(observed ? { traceStore: new CallObserver(options.traceStore, sink) } : {}),
  };
}
