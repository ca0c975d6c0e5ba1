/**
 * The structural shape of an MCP SDK `Client` (from `@modelcontextprotocol/sdk/client/index.js`) that
 * the public API names, so the runtime's declarations do not pull the SDK's (and zod's) types into
 * every consumer's type-check. Any connected SDK Client satisfies it; factories must return one.
 */

/** Server identity from `initialize` (the SDK's `Implementation`). */
export interface McpServerVersionLike {
  readonly name: string;
  readonly version: string;
}

/**
 * A connected MCP SDK `Client`. Only the members this runtime uses are named; the value a factory
 * returns must be a real SDK Client (the invoker calls its `request` with SDK result schemas).
 */
export interface McpClientLike {
  request(request: never, resultSchema: never, options?: never): Promise<unknown>;
  setNotificationHandler(notificationSchema: never, handler: (notification: never) => void): void;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  getServerVersion(): McpServerVersionLike | undefined;
  getInstructions(): string | undefined;
}
