/**
 * schemarouter/postgres — shared runtime state on PostgreSQL for a fleet of processes: traces,
 * budgets and quotas reserved atomically, cooldowns and health-probe verdicts, and the explicit
 * schema migrations (docs/state/postgres.md). Needs the optional peer `pg`.
 */
export { PostgresAvailabilityStore, type ProbeRecord } from "./availability.js";
export { PostgresBudgetStore } from "./budgets.js";
export { connectPostgres, PostgresState, type PostgresStateOptions } from "./connect.js";
export type { PostgresConnectionOptions } from "./database.js";
export { type MigrationResult, migratePostgres, postgresSchemaStatus, type SchemaStatus } from "./migrate.js";
export { POSTGRES_SCHEMA_VERSION } from "./migrations.js";
export { PostgresTraceStore, type PostgresTraceStoreOptions, type TraceRetention } from "./traces.js";
