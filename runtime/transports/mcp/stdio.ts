/**
 * MCP stdio client transport (MCP spec, Transports § stdio) that spawns the server with exactly the
 * environment it is given. The SDK's StdioClientTransport always merges its default environment
 * (HOME, LOGNAME, PATH, SHELL, TERM, USER) into the child; this one does not, so an env allowlist
 * means what it says. A bare command name is looked up on the parent's PATH by this trusted process;
 * the child does not receive PATH unless it is allowlisted.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { loadPeer, MCP_SDK } from "../../errors/optional-peer.js";

export interface StdioTransportOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** The complete child environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Where the server's stderr goes (default "inherit", so its diagnostics stay visible). */
  readonly stderr?: "inherit" | "ignore";
  /** PATH used to look up a bare command name (default: this process's PATH). */
  readonly searchPath?: string;
}

const CLOSE_GRACE_MS = 2000;

/** Resolves a bare command name against `searchPath`; paths and unknown names are returned unchanged. */
export function resolveCommand(command: string, searchPath: string | undefined): string {
  if (command.includes("/") || command.includes("\\") || isAbsolute(command)) return command;
  for (const dir of (searchPath ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return command;
}

/** Creates the transport; the SDK's message framing is imported lazily. */
export async function createStdioTransport(options: StdioTransportOptions): Promise<Transport> {
  const { ReadBuffer, serializeMessage } = await loadPeer(
    MCP_SDK,
    "An MCP stdio binding",
    () => import("@modelcontextprotocol/sdk/shared/stdio.js"),
  );
  return new AllowlistStdioTransport(options, new ReadBuffer(), serializeMessage);
}

interface MessageBuffer {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

class AllowlistStdioTransport implements Transport {
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  onmessage?: Transport["onmessage"];
  private child: ChildProcess | undefined;
  private started = false;
  /** Ids of requests sent and not yet answered. */
  private readonly pending = new Set<string | number>();

  constructor(
    private readonly options: StdioTransportOptions,
    private readonly buffer: MessageBuffer,
    private readonly serialize: (message: JSONRPCMessage) => string,
  ) {}

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error("the stdio transport was already started"));
    this.started = true;
    const { options } = this;
    return new Promise((resolve, reject) => {
      const child = spawn(
        resolveCommand(options.command, options.searchPath ?? process.env.PATH),
        [...(options.args ?? [])],
        {
          env: { ...options.env },
          stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
          shell: false,
          windowsHide: true,
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        },
      );
      this.child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        this.hold(false);
        resolve();
      });
      child.once("close", () => {
        this.child = undefined;
        this.buffer.clear();
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    });
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      const { id, method } = message as { id?: unknown; method?: unknown };
      if (id !== undefined && method === undefined && this.pending.delete(id as string | number))
        this.hold(this.pending.size > 0);
      this.onmessage?.(message);
    }
  }

  /**
   * Holds the event loop open only while a request waits for its answer: an idle server never keeps
   * a process alive that forgot `router.close()` (docs/runtime/transports.md).
   */
  private hold(busy: boolean): void {
    const child = this.child;
    if (child === undefined) return;
    const handles = [child, child.stdout, child.stdin] as ({ ref?: () => void; unref?: () => void } | null)[];
    for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed)
      return Promise.reject(new Error("Not connected"));
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id !== undefined && method !== undefined) {
      this.pending.add(id as string | number);
      this.hold(true);
    } else if (method === "notifications/cancelled") {
      // A request given up on (a timeout, an abort) will not be answered: stop waiting for it.
      const { requestId } = ((message as { params?: { requestId?: string | number } }).params ?? {}) as {
        requestId?: string | number;
      };
      if (requestId !== undefined && this.pending.delete(requestId)) this.hold(this.pending.size > 0);
    }
    return new Promise((resolve, reject) => {
      const ok = stdin.write(this.serialize(message), (error) => {
        if (error) reject(error);
      });
      if (ok) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    // Closing is work someone awaits: the child (and the bounded grace timer) hold the event loop until
    // it has exited, or a process whose only pending work is this close would end mid-await.
    this.hold(true);
    const wait = () => {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      });
      return Promise.race([closed, grace]).finally(() => clearTimeout(timer));
    };
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await wait();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await wait();
    }
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
