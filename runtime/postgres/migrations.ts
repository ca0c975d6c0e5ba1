/**
 * The versioned schema of schemarouter's PostgreSQL state (docs/state/postgres.md, "Migrations").
 * Each migration is applied once, in order, in one transaction, and recorded with the SHA-256 of its
 * text; a recorded migration whose text differs, or a version this code does not know, is refused.
 * Never edit a released migration: add the next one. `{schema}` is the quoted schema name.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const TRACE_EVENTS = `
CREATE TABLE {schema}.trace_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL,
  sequence integer NOT NULL CHECK (sequence >= 0),
  type text NOT NULL,
  "timestamp" text NOT NULL,
  event text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (run_id, sequence)
);
CREATE INDEX trace_events_run_starts ON {schema}.trace_events (id) WHERE sequence = 0;
CREATE FUNCTION {schema}.trace_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('schemarouter.trace_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'schemarouter trace events are append-only (% refused)', TG_OP
    USING ERRCODE = 'object_not_in_prerequisite_state';
END;
$$;
CREATE TRIGGER trace_events_append_only BEFORE UPDATE OR DELETE ON {schema}.trace_events
  FOR EACH ROW EXECUTE FUNCTION {schema}.trace_events_append_only();
CREATE TRIGGER trace_events_no_truncate BEFORE TRUNCATE ON {schema}.trace_events
  FOR EACH STATEMENT EXECUTE FUNCTION {schema}.trace_events_append_only();
`;

const BUDGETS_AND_AVAILABILITY = `
CREATE TABLE {schema}.budgets (
  key text PRIMARY KEY,
  limits jsonb NOT NULL,
  calls bigint NOT NULL DEFAULT 0 CHECK (calls >= 0),
  attempts bigint NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  remote_attempts bigint NOT NULL DEFAULT 0 CHECK (remote_attempts >= 0),
  cost numeric NOT NULL DEFAULT 0,
  tool_attempts jsonb NOT NULL DEFAULT '{}',
  in_flight bigint NOT NULL DEFAULT 0 CHECK (in_flight >= 0),
  window_index bigint NOT NULL DEFAULT 0,
  window_attempts bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE {schema}.cooldowns (
  tool text PRIMARY KEY,
  until timestamptz NOT NULL,
  reason text NOT NULL,
  failures integer NOT NULL CHECK (failures > 0),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE {schema}.probe_results (
  tool text PRIMARY KEY,
  healthy boolean NOT NULL,
  reason text,
  checked_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
`;

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  Object.freeze({ version: 1, name: "trace events", sql: TRACE_EVENTS }),
  Object.freeze({ version: 2, name: "budgets and availability", sql: BUDGETS_AND_AVAILABILITY }),
]);

/** The schema version this schemarouter writes and reads. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** The bookkeeping table, created with the schema by the first migration run. */
export const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS {schema}.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
COMMENT ON TABLE {schema}.schema_migrations IS 'schemarouter state schema versions (schemarouter db migrate)';
`;
