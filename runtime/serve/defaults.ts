/**
 * Defaults of the MCP server and its HTTP transport, defined once (docs/serve.md); the compiler's
 * config schema states the same values (a test compares them).
 */
export const SERVE_DEFAULTS = Object.freeze({
  maxConcurrentCalls: 16,
  maxQueuedCalls: 256,
  host: "127.0.0.1",
  port: 8931,
  path: "/mcp",
  maxBodyBytes: 1_048_576,
  maxSessions: 100,
  sessionIdleMs: 1_800_000,
});
