/** `schemarouter migrate`: the CLI face of compiler/migrate (docs/reference/cli.md, "migrate"). */
import { migrateLockfile } from "../migrate/migrate.js";

export async function runMigrate(
  lockfile: string,
  options: { check?: boolean; json?: boolean },
): Promise<{ text: string; exitCode: 0 | 1 }> {
  const plan = await migrateLockfile(lockfile, { check: options.check === true });
  const pending = plan.migrations.length > 0;
  const exitCode = options.check === true && pending ? 1 : 0;
  if (options.json === true) {
    return {
      text: `${JSON.stringify({ ...plan, written: pending && options.check !== true }, null, 2)}\n`,
      exitCode,
    };
  }
  if (!pending)
    return { text: `Nothing to migrate: every artifact in ${plan.lockfile} is current.\n`, exitCode };
  const verb = options.check === true ? "would upgrade" : "upgraded";
  const lines = plan.migrations.map((m) => `  ${m.source}: ${m.path} format ${m.from} → ${m.to}`);
  const next =
    options.check === true
      ? "Run `schemarouter migrate` to write them."
      : "Contracts and fingerprints are unchanged; review and commit the artifacts and the lockfile.";
  return { text: `${verb} ${plan.migrations.length} artifact(s):\n${lines.join("\n")}\n${next}\n`, exitCode };
}
