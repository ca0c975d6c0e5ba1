/**
 * SqliteTraceStore: the embedded, append-only RunEvent store on better-sqlite3 (an optional peer,
 * imported lazily). WAL journal, `synchronous=FULL`, one IMMEDIATE transaction per append, versioned
 * schema (`PRAGMA user_version`), UNIQUE(run_id, sequence), and triggers that abort UPDATE and DELETE.
 *
 * Privacy: by default tool arguments and results are stored redacted. With `includePayloads: true`
 * the database holds real argument and result values: it is then sensitive storage, and the
 * application owns its access control, encryption at rest and retention.
 */
import type BetterSqlite3 from "better-sqlite3";
import { canonicalJson } from "../format/fingerprint.js";
import { type RunEvent, TraceError, validateRunEvent } from "./events.js";
import { redactEvent } from "./redact.js";
import { assertFollows, type EventPosition, type StoredEvent, type TraceStore } from "./store.js";

type Database = BetterSqlite3.Database;

/** The schema version this code writes and reads (`PRAGMA user_version`). */
export const TRACE_SCHEMA_VERSION = 1;
/** `PRAGMA application_id` of a SchemaRouter trace database ("SRtr"). */
export const TRACE_APPLICATION_ID = 0x53527472;

const APPEND_ONLY = "schemarouter trace events are append-only";
const SCHEMA_V1 = `
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  sequence INTEGER NOT NULL CHECK (sequence >= 0),
  type TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  event TEXT NOT NULL,
  UNIQUE (run_id, sequence)
) STRICT;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY}'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY}'); END;
PRAGMA application_id = ${TRACE_APPLICATION_ID};
PRAGMA user_version = ${TRACE_SCHEMA_VERSION};
`;
const SCHEMA_OBJECTS = ["table:events", "trigger:events_no_update", "trigger:events_no_delete"];

export interface SqliteTraceStoreOptions {
  /**
   * Store tool arguments and results unredacted. Off by default. When on, the database file is
   * sensitive storage: protect, encrypt and expire it like the payloads themselves.
   */
  readonly includePayloads?: boolean;
}

interface Statements {
  readonly last: BetterSqlite3.Statement<[string], unknown>;
  readonly insert: BetterSqlite3.Statement<[string, number, string, string, string], unknown>;
  readonly run: BetterSqlite3.Statement<[string], unknown>;
  readonly runs: BetterSqlite3.Statement<[], unknown>;
}

/** Append-only RunEvent store in one SQLite file. Open it with `SqliteTraceStore.open(path)`. */
export class SqliteTraceStore implements TraceStore {
  readonly path: string;
  /** True when arguments and results are stored unredacted (the database is then sensitive). */
  readonly includePayloads: boolean;
  #db: Database | undefined;
  readonly #statements: Statements;
  readonly #append: (event: RunEvent, data: string) => void;

  private constructor(db: Database, path: string, includePayloads: boolean) {
    this.#db = db;
    this.path = path;
    this.includePayloads = includePayloads;
    this.#statements = {
      last: db.prepare(
        "SELECT run_id, sequence, type, timestamp FROM events WHERE run_id = ? ORDER BY sequence DESC LIMIT 1",
      ),
      insert: db.prepare(
        "INSERT INTO events (run_id, sequence, type, timestamp, event) VALUES (?, ?, ?, ?, ?)",
      ),
      run: db.prepare("SELECT run_id, sequence, event FROM events WHERE run_id = ? ORDER BY sequence"),
      runs: db.prepare("SELECT run_id FROM events GROUP BY run_id ORDER BY MIN(id)"),
    };
    const transaction = db.transaction((event: RunEvent, data: string) => {
      const last = this.#statements.last.get(event.runId);
      assertFollows(last === undefined ? undefined : positionOf(last, path), event);
      this.#statements.insert.run(event.runId, event.sequence, event.type, event.timestamp, data);
    });
    // IMMEDIATE: take the write lock before reading the run's last event, so two processes
    // appending to the same file cannot both pass the ordering check.
    this.#append = (event, data) => transaction.immediate(event, data);
  }

  /**
   * Opens (creating when absent) a trace database. Refuses a newer schema version or a database
   * of another application (`TRACE_SCHEMA_UNSUPPORTED`) and a damaged one (`TRACE_CORRUPT`).
   */
  static async open(path: string, options: SqliteTraceStoreOptions = {}): Promise<SqliteTraceStore> {
    const Driver = await loadDriver();
    const db = new Driver(path);
    try {
      prepareDatabase(db, path);
      return new SqliteTraceStore(db, path, options.includePayloads === true);
    } catch (error) {
      db.close();
      throw asTraceError(error, path);
    }
  }

  /** Validates the event and the run's ordering, then stores it (redacted unless includePayloads). */
  async append(event: RunEvent): Promise<void> {
    this.#open();
    const valid = validateRunEvent(event);
    const data = canonicalJson(redactEvent(valid, { includePayloads: this.includePayloads }));
    try {
      this.#append(valid, data);
    } catch (error) {
      throw asTraceError(error, this.path);
    }
  }

  async readRun(runId: string): Promise<readonly StoredEvent[]> {
    this.#open();
    return this.#statements.run.all(runId).map((row) => storedEventOf(row, this.path));
  }

  async listRuns(): Promise<readonly string[]> {
    this.#open();
    return this.#statements.runs.all().map((row) => {
      const runId = (row as { run_id?: unknown }).run_id;
      if (typeof runId !== "string") throw corrupt(this.path, "a run_id is not text");
      return runId;
    });
  }

  /** Closes the database; further calls are refused with `TRACE_STORE_CLOSED`. Idempotent. */
  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    db?.close();
  }

  #open(): Database {
    if (this.#db === undefined) {
      throw new TraceError("TRACE_STORE_CLOSED", `The trace store ${this.path} is closed; open it again.`, {
        path: this.path,
      });
    }
    return this.#db;
  }
}

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new TraceError(
      "OPTIONAL_DEPENDENCY_MISSING",
      "SqliteTraceStore needs the optional peer dependency better-sqlite3: run `npm install better-sqlite3`.",
      { dependency: "better-sqlite3" },
      { cause: error },
    );
  }
}

/**
 * Checks the schema before changing anything, then switches to WAL with `synchronous=FULL` and
 * creates the schema when the file is new. FULL (not NORMAL): in WAL mode NORMAL already survives a
 * killed process, but FULL also fsyncs the WAL on every commit, so an append whose promise resolved
 * survives power loss or an OS crash; a trace is an audit record, worth one fsync per event.
 */
function prepareDatabase(db: Database, path: string): void {
  db.pragma("busy_timeout = 5000");
  inspectSchema(db, path);
  const mode = db.pragma("journal_mode = WAL", { simple: true });
  if (mode !== "wal" && !db.memory) {
    throw corrupt(path, `the database cannot use WAL journaling (journal_mode is ${String(mode)})`);
  }
  db.pragma("synchronous = FULL");
  db.transaction(() => {
    if (inspectSchema(db, path) === "empty") db.exec(SCHEMA_V1);
  }).immediate();
  if (inspectSchema(db, path) !== "current") throw corrupt(path, "the schema was not created");
}

function inspectSchema(db: Database, path: string): "empty" | "current" {
  const version = Number(db.pragma("user_version", { simple: true }));
  const applicationId = Number(db.pragma("application_id", { simple: true }));
  const objects = db
    .prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
    .all()
    .map((row) => {
      const { type, name } = row as { type: unknown; name: unknown };
      return `${String(type)}:${String(name)}`;
    });
  if (applicationId !== 0 && applicationId !== TRACE_APPLICATION_ID) {
    throw unsupported(path, `it belongs to another application (application_id ${applicationId})`, version);
  }
  if (version > TRACE_SCHEMA_VERSION) {
    throw unsupported(
      path,
      `its schema version ${version} was written by a newer schemarouter (this one reads version ` +
        `${TRACE_SCHEMA_VERSION}); upgrade schemarouter to read it`,
      version,
    );
  }
  if (version === 0) {
    if (objects.length === 0) return "empty";
    throw unsupported(
      path,
      "it is an existing SQLite database that is not a trace store; use a new path",
      version,
    );
  }
  if (version < TRACE_SCHEMA_VERSION || applicationId !== TRACE_APPLICATION_ID) {
    throw unsupported(path, `schema version ${version} is not a known trace store version`, version);
  }
  const missing = SCHEMA_OBJECTS.filter((object) => !objects.includes(object));
  if (missing.length > 0) throw corrupt(path, `schema objects are missing: ${missing.join(", ")}`);
  return "current";
}

function positionOf(row: unknown, path: string): EventPosition {
  const { run_id, sequence, type, timestamp } = row as Record<string, unknown>;
  if (
    typeof run_id !== "string" ||
    typeof sequence !== "number" ||
    typeof type !== "string" ||
    typeof timestamp !== "string"
  ) {
    throw corrupt(path, "a stored trace row has mistyped columns");
  }
  return { runId: run_id, sequence, type, timestamp };
}

function storedEventOf(row: unknown, path: string): StoredEvent {
  const { run_id, sequence, event } = row as Record<string, unknown>;
  if (typeof run_id !== "string" || typeof sequence !== "number" || typeof event !== "string") {
    throw corrupt(path, "a stored trace row has mistyped columns");
  }
  return { runId: run_id, sequence, data: event };
}

function unsupported(path: string, why: string, version: number): TraceError {
  return new TraceError("TRACE_SCHEMA_UNSUPPORTED", `Refusing to use ${path} as a trace store: ${why}.`, {
    path,
    version,
    supported: TRACE_SCHEMA_VERSION,
  });
}

function corrupt(path: string, why: string, cause?: unknown): TraceError {
  return new TraceError(
    "TRACE_CORRUPT",
    `The trace store ${path} is damaged: ${why}. Restore it from a backup or use a new path.`,
    { path },
    { cause },
  );
}

/** SQLite's own "not a database" / "corrupt" failures become TRACE_CORRUPT; everything else passes. */
function asTraceError(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") return corrupt(path, String(code), error);
  return error;
}
