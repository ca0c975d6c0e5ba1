/**
 * Decision backends from allowlisted npm packages (docs/plugins.md, "Decision backends"): the package
 * declares `"schemarouter": { "decisionBackend": { "entry": "./backend.mjs" } }` in its package.json;
 * it is imported only when it is on a non-empty allowlist with a matching version range, all decided
 * from package.json before anything runs. The backend it exports is used like any other: bounded and
 * fail-closed by `planWithDecision` (docs/trust-model.md §14), choosing only among offered option IDs.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { DecisionBackend } from "./decision.js";
import { PlanningError } from "./errors.js";
import { satisfiesRange } from "./version-range.js";

export interface DecisionPluginAllow {
  readonly package: string;
  /** `x.y.z`, `^x.y.z` or `~x.y.z`. */
  readonly range: string;
}

export interface DecisionPluginOptions {
  /** The npm package to load. */
  readonly package: string;
  /** Packages that may be loaded; must be non-empty and name `package`. */
  readonly allow: readonly DecisionPluginAllow[];
  /** The folder whose `node_modules` holds the package (default: the current directory). */
  readonly root?: string;
  /** How long the import may take (default 10,000 ms). */
  readonly importTimeoutMs?: number;
}

const MAX_MANIFEST_BYTES = 1024 * 1024;
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

export async function loadDecisionBackend(options: DecisionPluginOptions): Promise<DecisionBackend> {
  const name = options.package;
  const refuse = (
    reason: "allowlist-empty" | "not-allowed" | "not-installed" | "metadata",
    message: string,
    version?: string,
  ): never => {
    throw new PlanningError("DECISION_PLUGIN_REFUSED", `decision plugin ${name}: ${message}`, {
      package: name,
      reason,
      ...(version !== undefined ? { version } : {}),
    });
  };
  if (!Array.isArray(options.allow) || options.allow.length === 0)
    return refuse(
      "allowlist-empty",
      "give allow: [{ package, range }]; installed packages are never loaded just because they are installed.",
    );
  const allowed = options.allow.filter((entry) => entry.package === name);
  if (allowed.length === 0) return refuse("not-allowed", "it is not on the allowlist.");
  if (typeof name !== "string" || !PACKAGE_NAME.test(name))
    return refuse("not-installed", "not a package name.");
  const dir = join(resolve(options.root ?? process.cwd()), "node_modules", ...name.split("/"));
  const manifest = await readManifest(join(dir, "package.json"));
  if (manifest === undefined) return refuse("not-installed", `no package.json at ${dir}; install it.`);
  const version = typeof manifest.version === "string" ? manifest.version : "";
  if (!allowed.some((entry) => satisfiesRange(version, entry.range)))
    return refuse(
      "not-allowed",
      `${version || "an unversioned package"} is installed, but the allowlist permits ${allowed.map((entry) => entry.range).join(", ")}; review the new version before widening the range.`,
      version,
    );
  const meta = (manifest.schemarouter as { decisionBackend?: { entry?: unknown } } | undefined)
    ?.decisionBackend;
  if (typeof meta?.entry !== "string")
    return refuse(
      "metadata",
      'its package.json declares no "schemarouter": { "decisionBackend": { "entry": "./…" } }.',
      version,
    );
  const entry = resolve(dir, meta.entry);
  const real = await realpath(entry).catch(() => undefined);
  const realDir = await realpath(dir).catch(() => dir);
  if (real === undefined || !real.startsWith(`${realDir}${sep}`))
    return refuse(
      "metadata",
      "schemarouter.decisionBackend.entry must name a module inside the package.",
      version,
    );
  const backend = await importBounded(name, real, options.importTimeoutMs ?? 10_000);
  return { decide: (input) => backend.decide(input) };
}

async function importBounded(name: string, path: string, timeoutMs: number): Promise<DecisionBackend> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PlanningError(
            "DECISION_PLUGIN_FAILED",
            `decision plugin ${name}: its import took longer than ${timeoutMs} ms.`,
            {
              package: name,
              reason: "timeout",
              timeoutMs,
            },
          ),
        ),
      timeoutMs,
    );
    timer.unref();
  });
  let module: { default?: unknown };
  try {
    module = (await Promise.race([import(pathToFileURL(path).href), timeout])) as { default?: unknown };
  } catch (error) {
    if (error instanceof PlanningError) throw error;
    throw new PlanningError(
      "DECISION_PLUGIN_FAILED",
      `decision plugin ${name}: its import failed: ${error instanceof Error ? error.message : String(error)}`,
      { package: name, reason: "import" },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  const backend = module.default as { decide?: unknown } | undefined;
  if (backend === null || typeof backend !== "object" || typeof backend.decide !== "function")
    throw new PlanningError(
      "DECISION_PLUGIN_FAILED",
      `decision plugin ${name}: its entry must export default { decide(input) { … } }.`,
      { package: name, reason: "invalid" },
    );
  return backend as DecisionBackend;
}

async function readManifest(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    if ((await stat(path)).size > MAX_MANIFEST_BYTES) return undefined;
    const value: unknown = JSON.parse(await readFile(path, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
