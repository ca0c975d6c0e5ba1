/**
 * The MCP invoker (MCP spec, Server features § Tools): one SDK client per source, created by a trusted
 * factory, reused and closed by `close()`. On connect and on every `notifications/tools/list_changed`
 * it lists all tools and compares them with the locked remote digests; drifted tools are refused
 * (REMOTE_DRIFT) before any `tools/call`. The SDK is imported lazily.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { InvocationContext, Invoker } from "../../boundary/invoker.js";
import { InvocationError, InvocationUnavailableError } from "../../errors/errors.js";
import { loadPeer, MCP_SDK } from "../../errors/optional-peer.js";
import type { JsonSchema } from "../../model/specs.js";
import { redactSecrets, secretsOf } from "../http/redact-secrets.js";
import type { McpClientFactory } from "./client.js";
import { assertNotDrifted, computeDrift, type LiveDigests, liveDigests, type McpDriftKind } from "./drift.js";
import { type SdkTypes, toInvocationError } from "./errors.js";
import { listAllTools, MCP_DEFAULT_REQUEST_TIMEOUT_MS } from "./list.js";

export type {
  McpClientFactory,
  McpClientLike,
  McpConnectionOptions,
  McpServerVersionLike,
} from "./client.js";
export {
  httpClientFactory,
  mcpClientFactory,
  mcpExecutionIdentity,
  stdioClientFactory,
} from "./client.js";
export type { McpDriftKind } from "./drift.js";
export { pickEnv } from "./target.js";

export interface McpDriftReport {
  readonly source: string;
  /** Drifted tools (changed, disappeared, appeared); empty when every listed tool matches the lock. */
  readonly drift: ReadonlyMap<string, McpDriftKind>;
  readonly listed: number;
}

export interface McpInvokerOptions {
  readonly source: string;
  /** Trusted client factory (see `stdioClientFactory`, `httpClientFactory`). */
  readonly connect: McpClientFactory;
  /** Locked remote digest per MCP tool name. */
  readonly expected: ReadonlyMap<string, string>;
  /** Bound of every MCP request (tools/call, each tools/list page). Default 30 s. */
  readonly timeoutMs?: number;
  readonly maxListPages?: number;
  /** Trusted observer, called after every completed listing (connect and each list_changed). */
  readonly onToolsChecked?: (report: McpDriftReport) => void;
  /**
   * Which calls first re-list the server's tools and check the definition against the lock, so a
   * definition changed since the last listing is refused even when the server sent no (or a late)
   * `list_changed`: `"non-read"` (default: write, destructive and unclassified calls) or `"every-call"`
   * (reads too). Reads otherwise rely on the listing at connect and on `list_changed`
   * (docs/sources/mcp.md, "Drift at run time").
   */
  readonly relistBefore?: McpRelistPolicy;
  /**
   * Trusted credential values the server was given (header values, stdio environment values): a
   * server's error text that repeats one has it replaced before it reaches messages and details
   * (docs/trust-model.md §7). The router fills this from the binding.
   */
  readonly secrets?: readonly string[];
}

export type McpRelistPolicy = "non-read" | "every-call";

interface Session {
  readonly client: Client;
  readonly sdk: SdkTypes;
  live: LiveDigests;
  refresh: Promise<void>;
  queued: boolean;
  alive: boolean;
}

export function createMcpInvoker(options: McpInvokerOptions): Invoker {
  return new McpInvoker(options);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function declaresOutput(schema: JsonSchema): boolean {
  return typeof schema === "object" && Object.keys(schema).length > 0;
}

class McpInvoker implements Invoker {
  private opening: Promise<Session> | undefined;
  private active: Session | undefined;
  private closed = false;
  private readonly timeoutMs: number;

  private readonly secrets: readonly string[];

  constructor(private readonly options: McpInvokerOptions) {
    this.timeoutMs = options.timeoutMs ?? MCP_DEFAULT_REQUEST_TIMEOUT_MS;
    this.secrets = secretsOf(options.secrets);
  }

  async invoke(context: InvocationContext): Promise<unknown> {
    const { endpoint, signal } = context;
    const { source } = this.options;
    if (endpoint.execution.kind !== "mcp") {
      throw new InvocationError("TRANSPORT_REFUSED", `Endpoint "${endpoint.name}" is not an MCP endpoint.`, {
        source,
      });
    }
    const tool = endpoint.execution.toolName;
    if (this.closed)
      throw new InvocationUnavailableError(`The MCP invoker of source "${source}" is closed.`, {
        source,
        tool,
      });
    let session: Session;
    try {
      session = await abortable(this.session(), signal);
      // A listing that starts after this call arrived: what the call is checked against is current.
      if (endpoint.effect !== "read" || this.options.relistBefore === "every-call")
        this.scheduleRefresh(session);
      await this.settled(session, signal);
    } catch (error) {
      throw toInvocationError(error, {
        source,
        tool,
        signal,
        phase: "connect",
        timeoutMs: this.timeoutMs,
        secrets: this.secrets,
      });
    }
    assertNotDrifted(source, tool, this.options.expected, session.live);
    let result: CallToolResult;
    try {
      result = await session.client.request(
        { method: "tools/call", params: { name: tool, arguments: { ...context.call.arguments } } },
        session.sdk.CallToolResultSchema,
        { timeout: this.timeoutMs, signal },
      );
    } catch (error) {
      const mapped = toInvocationError(
        error,
        { source, tool, signal, phase: "call", timeoutMs: this.timeoutMs, secrets: this.secrets },
        session.sdk,
      );
      if (mapped.details.reason === "connection") this.drop(session);
      throw mapped;
    }
    if (result.isError === true) {
      const text = Array.isArray(result.content)
        ? redactSecrets(
            result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n"),
            this.secrets,
          ).slice(0, 2000)
        : "";
      throw new InvocationError(
        "TOOL_ERROR",
        `MCP tool "${tool}" of source "${source}" reported an error (isError).`,
        {
          source,
          tool,
          text,
        },
      );
    }
    if (declaresOutput(endpoint.outputSchema)) {
      if (result.structuredContent === undefined) {
        throw new InvocationError(
          "OUTPUT_SCHEMA_VIOLATION",
          `MCP tool "${tool}" of source "${source}" declares an outputSchema but returned no structuredContent.`,
          { source, tool },
        );
      }
      return result.structuredContent;
    }
    return result.structuredContent ?? result.content;
  }

  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = undefined;
    this.active = undefined;
    if (opening === undefined) return;
    try {
      const session = await opening;
      session.alive = false;
      await session.client.close();
    } catch {
      // never opened, or already gone
    }
  }

  private session(): Promise<Session> {
    if (this.opening === undefined) {
      const opening = this.open();
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  private async open(): Promise<Session> {
    const sdk = await loadPeer(MCP_SDK, "An MCP binding", () => import("@modelcontextprotocol/sdk/types.js"));
    // A factory's client is an SDK Client (McpClientLike is its public structural shape).
    const client = (await this.options.connect()) as unknown as Client;
    const session: Session = {
      client,
      sdk,
      live: new Map(),
      refresh: Promise.resolve(),
      queued: false,
      alive: true,
    };
    const previous = client.onclose;
    client.onclose = () => {
      previous?.();
      session.alive = false;
      this.forget(session);
    };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => this.scheduleRefresh(session));
    session.refresh = this.relist(session);
    try {
      await session.refresh;
    } catch (error) {
      session.alive = false;
      await client.close().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new InvocationUnavailableError(`The MCP invoker of source "${this.options.source}" is closed.`);
    }
    this.active = session;
    return session;
  }

  private async relist(session: Session): Promise<void> {
    const tools = await listAllTools(session.client, {
      timeoutMs: this.timeoutMs,
      ...(this.options.maxListPages === undefined ? {} : { maxPages: this.options.maxListPages }),
    });
    session.live = liveDigests(tools);
    const report = {
      source: this.options.source,
      drift: computeDrift(this.options.expected, session.live),
      listed: tools.length,
    };
    try {
      this.options.onToolsChecked?.(report);
    } catch {
      // an observer cannot change the outcome
    }
  }

  /** Queues one re-list after the current one; a failed re-list retires the session (fail closed). */
  private scheduleRefresh(session: Session): void {
    if (!session.alive || session.queued) return;
    session.queued = true;
    const run = session.refresh
      .catch(() => undefined)
      .then(() => {
        session.queued = false;
        return this.relist(session);
      });
    session.refresh = run;
    run.catch(() => this.drop(session));
  }

  /** Waits until no re-list is pending, including ones scheduled while waiting. */
  private async settled(session: Session, signal: AbortSignal): Promise<void> {
    for (;;) {
      const current = session.refresh;
      await abortable(current, signal);
      if (current === session.refresh) break;
    }
    if (!session.alive) {
      throw new InvocationUnavailableError(`The MCP connection of source "${this.options.source}" closed.`, {
        source: this.options.source,
        reason: "connection",
      });
    }
  }

  private forget(session: Session): void {
    if (this.active === session) {
      this.active = undefined;
      this.opening = undefined;
    }
  }

  private drop(session: Session): void {
    session.alive = false;
    this.forget(session);
    void session.client.close().catch(() => undefined);
  }
}
