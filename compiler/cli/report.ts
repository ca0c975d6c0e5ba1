/**
 * `schemarouter report <trace-db>`: the decision-trace report of a SQLite trace store as text, JSON or
 * one HTML page (docs/runtime/trace-reports.md). Opens the store only if the file exists (a typo never
 * creates an empty database) and reads only structured, host-visible facts.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CommanderError } from "commander";
import { writeAtomic } from "../emit/write.js";
import { reportHtml } from "../report/html.js";
import { reportText } from "../report/text.js";

export const REPORT_FORMATS = ["text", "json", "html"] as const;

export async function runReport(
  cwd: string,
  database: string,
  options: { format: string; out?: string; maxRuns?: string },
): Promise<string> {
  if (!(REPORT_FORMATS as readonly string[]).includes(options.format))
    throw new CommanderError(
      2,
      "usage",
      `--format must be one of ${REPORT_FORMATS.join(", ")} (got "${options.format}")`,
    );
  const maxRuns = options.maxRuns === undefined ? undefined : Number(options.maxRuns);
  if (maxRuns !== undefined && (!Number.isSafeInteger(maxRuns) || maxRuns < 1))
    throw new CommanderError(2, "usage", `--max-runs must be a positive integer (got "${options.maxRuns}")`);
  const path = resolve(cwd, database);
  if (!existsSync(path))
    throw new CommanderError(
      2,
      "usage",
      `no trace database at ${path} (give the file a SqliteTraceStore writes)`,
    );
  const { SqliteTraceStore, buildDecisionReport } = await import("schemarouter/traces");
  const store = await SqliteTraceStore.open(path);
  let text: string;
  try {
    const report = await buildDecisionReport(store, maxRuns !== undefined ? { maxRuns } : {});
    text =
      options.format === "json"
        ? `${JSON.stringify(report, null, 2)}\n`
        : options.format === "html"
          ? reportHtml(report)
          : reportText(report);
  } finally {
    await store.close();
  }
  if (options.out === undefined) return text;
  await writeAtomic(resolve(cwd, options.out), text);
  return `Wrote ${options.out}.\n`;
}
