/**
 * One MCP session (docs/serve.md): an SDK low-level `Server` with the `tools/list`, `tools/call` and
 * `logging/setLevel` handlers, its own budget, the tools its searches found (top-k listing) and its
 * log level. Over HTTP every session has its own Server and transport; stdio has one session.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { callTool } from "./call.js";
import type { LogLevel } from "./observer.js";
import type { Sdk } from "./sdk.js";
import { SessionBudget } from "./session-budget.js";
import type { ServeState } from "./state.js";

export type SessionTransport = "stdio" | "http";

export class ServeSession {
  /** The MCP session id (HTTP: the transport's `Mcp-Session-Id`; stdio: generated). */
  id: string;
  readonly budget: SessionBudget;
  /** Tool names a search of this session listed (kept listed in top-k mode). */
  readonly discovered = new Set<string>();
  logLevel: LogLevel | undefined;
  readonly server: Server;

  constructor(
    readonly state: ServeState,
    readonly transport: SessionTransport,
    sdk: Sdk,
    id?: string,
  ) {
    this.id = id ?? randomUUID();
    this.budget = new SessionBudget(state.options.sessionBudget);
    this.server = new sdk.Server(state.options.serverInfo, {
      capabilities: { tools: { listChanged: true }, logging: {} },
    });
    const { types } = sdk;
    this.server.setRequestHandler(types.ListToolsRequestSchema, () => ({
      tools: state.catalog.list(this.discovered) as never,
    }));
    this.server.setRequestHandler(
      types.CallToolRequestSchema,
      (request, extra) => callTool(this, request.params, extra, sdk) as never,
    );
    this.server.setRequestHandler(types.SetLevelRequestSchema, (request) => {
      this.logLevel = request.params.level;
      return {};
    });
  }

  /** Tells the client its tool list changed (errors are the transport's: a closed session ignores it). */
  notifyListChanged(): void {
    this.server.sendToolListChanged().catch(() => undefined);
  }

  /** A log message to this session's client, when its level lets it through. */
  log(level: LogLevel, data: Readonly<Record<string, unknown>>): void {
    this.server.sendLoggingMessage({ level, logger: "schemarouter", data }).catch(() => undefined);
  }
}
