/** Decision backends from allowlisted npm packages (docs/plugins.md, "Decision backends"). */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDecisionBackend } from "../../../runtime/planner/decision-plugin.js";
import { planWithDecision } from "../../../runtime/planner/index.js";
import { endpoint, field, registryOf, tool } from "../../fixtures/catalogs.js";
import { tempProject } from "../../helpers/project.js";
import { text } from "./helpers.js";

/** Installs a real package into a temp project's node_modules; its entry writes a marker when imported. */
function project(options: { version?: string; meta?: unknown; source?: string } = {}) {
  const { dir } = tempProject("decision-plugin");
  const pkg = join(dir, "node_modules", "@acme", "picker");
  mkdirSync(pkg, { recursive: true });
  const marker = join(dir, "imported.txt");
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "@acme/picker",
      version: options.version ?? "1.2.0",
      type: "module",
      ...(options.meta === null
        ? {}
        : { schemarouter: options.meta ?? { decisionBackend: { entry: "./backend.mjs" } } }),
    }),
  );
  writeFileSync(
    join(pkg, "backend.mjs"),
    options.source ??
      `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(marker)}, "imported");
export default {
  decide(input) {
    // Always the last offered option: a choice the deterministic planner would not make.
    return { selected: [input.options.at(-1).id], confidence: 0.9 };
  },
};
`,
  );
  return { dir, marker };
}

const allow = [{ package: "@acme/picker", range: "^1.0.0" }];

describe("decision plugins", () => {
  it("an allowed package's backend is used by planWithDecision, choosing only among offered options", async () => {
    const { dir, marker } = project();
    const backend = await loadDecisionBackend({ package: "@acme/picker", allow, root: dir });
    expect(existsSync(marker)).toBe(true);
    const registry = registryOf([
      tool("alpha", [
        endpoint("lookup", {
          description: "city weather lookup",
          fields: [field("id", { identifier: true, ...text }), field("a")],
        }),
      ]),
      tool("beta", [
        endpoint("lookup", {
          description: "city weather lookup",
          fields: [field("id", { identifier: true, ...text }), field("x")],
        }),
      ]),
    ]);
    const plan = await planWithDecision(registry, { query: "city weather" }, backend);
    expect(plan.calls.map((call) => call.route)).toEqual(["beta.lookup"]);
    expect(plan.explanations[0]!.decisionBackend.candidate).toEqual({ used: true, abstained: false });
  });

  it.each([
    ["an empty allowlist", {}, [], "allowlist-empty"],
    ["a package not on the allowlist", {}, [{ package: "@acme/other", range: "^1.0.0" }], "not-allowed"],
    ["an installed version outside the range", { version: "2.0.0" }, allow, "not-allowed"],
    ["a package without decision-backend metadata", { meta: null }, allow, "metadata"],
    [
      "an entry outside the package",
      { meta: { decisionBackend: { entry: "../../../evil.mjs" } } },
      allow,
      "metadata",
    ],
  ] as const)("refuses %s before importing anything", async (_name, setup, list, reason) => {
    const { dir, marker } = project(setup);
    await expect(
      loadDecisionBackend({ package: "@acme/picker", allow: list, root: dir }),
    ).rejects.toMatchObject({
      code: "DECISION_PLUGIN_REFUSED",
      details: { package: "@acme/picker", reason },
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a package that is not installed", async () => {
    const { dir } = tempProject("decision-plugin-missing");
    await expect(loadDecisionBackend({ package: "@acme/picker", allow, root: dir })).rejects.toMatchObject({
      code: "DECISION_PLUGIN_REFUSED",
      details: { reason: "not-installed" },
    });
  });

  it.each([
    ["throws on import", `throw new Error("boom");`, "import"],
    ["never finishes importing", `await new Promise(() => {});`, "timeout"],
    ["exports no backend", `export default { choose() {} };`, "invalid"],
  ])("an allowed plugin that %s fails closed", async (_name, source, reason) => {
    const { dir } = project({ source });
    await expect(
      loadDecisionBackend({ package: "@acme/picker", allow, root: dir, importTimeoutMs: 200 }),
    ).rejects.toMatchObject({ code: "DECISION_PLUGIN_FAILED", details: { reason } });
  });
});
