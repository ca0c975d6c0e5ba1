/**
 * The connection pool every PostgreSQL store shares: node-postgres (`pg`, an optional peer imported
 * only here, lazily), bounded connect and query times, and the mapping of every driver failure to a
 * StateError, so no store ever hangs or leaks a driver error (docs/state/postgres.md).
 */
import { createHash } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { StateError } from "../governed/state/errors.js";

export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database`, e.g. `process.env.DATABASE_URL`. */
  readonly url: string;
  /** The PostgreSQL schema holding schemarouter's tables (default `schemarouter`). */
  readonly schema?: string;
  /** Bound of opening one connection, or of waiting for a free one (default 5 000 ms). */
  readonly connectTimeoutMs?: number;
  /** Bound of one statement, enforced by the client and the server (default 5 000 ms). */
  readonly queryTimeoutMs?: number;
  /** Connections in the pool (default 10). */
  readonly maxConnections?: number;
}

export const DEFAULT_SCHEMA = "schemarouter";
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const KEYS = ["url", "schema", "connectTimeoutMs", "queryTimeoutMs", "maxConnections", "migrate"];

/** One pool, one schema. `query` and `transaction` throw StateError only. */
export class Database {
  /** The schema, quoted for SQL text. */
  readonly ident: string;
  #pool: Pool | undefined;
  readonly #names = new Map<string, string>();

  constructor(
    pool: Pool,
    readonly schema: string,
    /** The URL without password or query, for messages. */
    readonly label: string,
  ) {
    this.#pool = pool;
    this.ident = `"${schema}"`;
  }

  get closed(): boolean {
    return this.#pool === undefined;
  }

  /**
   * Runs one statement (autocommit) and returns its rows. Statements are prepared once per
   * connection (named by a digest of their text): the stores issue a few fixed statements often.
   */
  async query<R>(text: string, values: readonly unknown[], what: string): Promise<R[]> {
    const pool = this.#open(what);
    let name = this.#names.get(text);
    if (name === undefined) {
      name = `schemarouter_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
      this.#names.set(text, name);
    }
    try {
      return (await pool.query({ name, text, values: values as unknown[] })).rows as R[];
    } catch (error) {
      throw stateErrorOf(error, this.label, what);
    }
  }

  /** Runs `work` in one transaction on one connection (rolled back when it throws). */
  async transaction<T>(what: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const pool = this.#open(what);
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw stateErrorOf(error, this.label, what);
    }
    let failure: unknown;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      failure = error;
      await client.query("ROLLBACK").catch(() => undefined);
      throw stateErrorOf(error, this.label, what);
    } finally {
      // A connection that failed is not reused.
      client.release(failure instanceof Error && !(failure instanceof StateError) ? failure : undefined);
    }
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end();
  }

  #open(what: string): Pool {
    if (this.#pool === undefined) {
      throw new StateError(
        "STATE_UNAVAILABLE",
        `The shared state ${this.label} is closed, so ${what} is refused. Connect again.`,
        { reason: "closed", database: this.label },
      );
    }
    return this.#pool;
  }
}

/** Validates the options and opens a pool (no connection is made yet). */
export async function openDatabase(options: PostgresConnectionOptions): Promise<Database> {
  const resolved = resolveOptions(options);
  const driver = await loadDriver();
  const pool = new driver.Pool({
    connectionString: resolved.url,
    max: resolved.maxConnections,
    connectionTimeoutMillis: resolved.connectTimeoutMs,
    query_timeout: resolved.queryTimeoutMs,
    statement_timeout: resolved.queryTimeoutMs,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    allowExitOnIdle: true,
    application_name: "schemarouter",
  });
  // An idle connection the server dropped: the pool discards it and the next query reconnects.
  pool.on("error", () => undefined);
  return new Database(pool, resolved.schema, resolved.label);
}

interface ResolvedOptions {
  readonly url: string;
  readonly label: string;
  readonly schema: string;
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly maxConnections: number;
}

function resolveOptions(options: PostgresConnectionOptions): ResolvedOptions {
  if (options === null || typeof options !== "object") throw invalid("options must be an object", "options");
  const unknown = Object.keys(options).find((key) => !KEYS.includes(key));
  if (unknown !== undefined)
    throw invalid(`unknown option "${unknown}" (known: ${KEYS.join(", ")})`, unknown);
  const label = labelOf(options.url);
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (typeof schema !== "string" || !SCHEMA_NAME.test(schema)) {
    throw invalid(
      `schema must be a lowercase SQL name like "${DEFAULT_SCHEMA}" (got ${String(schema)})`,
      "schema",
    );
  }
  const bounded = (name: keyof PostgresConnectionOptions, fallback: number, min: number, max: number) => {
    const value = options[name] ?? fallback;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
      throw invalid(`${name} must be an integer from ${min} to ${max} (got ${String(value)})`, name);
    }
    return value;
  };
  return {
    url: options.url,
    label,
    schema,
    connectTimeoutMs: bounded("connectTimeoutMs", 5_000, 1, 600_000),
    queryTimeoutMs: bounded("queryTimeoutMs", 5_000, 1, 600_000),
    maxConnections: bounded("maxConnections", 10, 1, 1_000),
  };
}

/** `postgres://user@host:port/database` — never the password or the query string. */
export function labelOf(url: unknown): string {
  if (typeof url !== "string" || !/^postgres(ql)?:\/\//.test(url)) {
    throw invalid(
      "url must be a postgres:// (or postgresql://) connection URL, e.g. process.env.DATABASE_URL",
      "url",
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("url is not a valid URL", "url");
  }
  const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`;
  return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
}

function invalid(problem: string, option: string): StateError {
  return new StateError("STATE_CONFIG_INVALID", `PostgreSQL state: ${problem}.`, { option });
}

type Driver = typeof import("pg");

async function loadDriver(): Promise<Driver> {
  try {
    const module = (await import("pg")) as Driver & { default?: Driver };
    return module.default ?? module;
  } catch (error) {
    throw new StateError(
      "OPTIONAL_DEPENDENCY_MISSING",
      "The PostgreSQL state backend needs the optional peer dependency pg: run `npm install pg`.",
      { dependency: "pg" },
      { cause: error },
    );
  }
}

const MIGRATION_CODES = new Set(["42P01", "3F000", "42883", "42703"]);
const LOST =
  /Connection terminated|ECONNRESET|EPIPE|socket hang up|Client has encountered a connection error/i;
const TIMEOUT = /timeout/i;

/** Any failure of the driver or the server as the StateError a store throws. */
export function stateErrorOf(error: unknown, label: string, what: string): StateError {
  if (error instanceof StateError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  if (MIGRATION_CODES.has(code)) {
    return new StateError(
      "STATE_MIGRATION_REQUIRED",
      `The shared state database ${label} lacks schemarouter's tables (${message}) while ${what}. ` +
        "Run `schemarouter db migrate --url <url>` (or connect with migrate: true).",
      { database: label, sqlState: code },
      { cause: error },
    );
  }
  const reason =
    code === "57014" || TIMEOUT.test(message)
      ? "timeout"
      : code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EHOSTUNREACH" || code === "EAI_AGAIN"
        ? "unreachable"
        : code.startsWith("28")
          ? "authentication"
          : code.startsWith("08") || code.startsWith("57P") || LOST.test(message) || LOST.test(code)
            ? "connection-lost"
            : "query-failed";
  return new StateError(
    "STATE_UNAVAILABLE",
    `The shared state database ${label} did not answer (${reason}: ${message}) while ${what}. ` +
      "Budgeted calls are refused until it does; check that PostgreSQL is running and reachable.",
    { reason, database: label, ...(code !== "" ? { sqlState: code } : {}) },
    { cause: error },
  );
}
