/**
 * The MCP drift race (docs/sources/mcp.md, "Drift at run time"): a server that changes a definition and
 * sends no `list_changed` (or sends it late) cannot get a write, destructive or unclassified call
 * executed against the changed definition, because such calls re-list the tools first; reads do the
 * same with `relistBefore: "every-call"`, and otherwise rely on the listing at connect and list_changed.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import type { McpRelistPolicy } from "../../../../runtime/transports/mcp/transport.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../../helpers/project.js";

const FIXTURE = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");

/** The fixture server, with `mutable` locked as `effect`; `control` changes it without telling anyone. */
async function project(effect: "read" | "write"): Promise<TempProject> {
  const created = tempProject(`mcp-relist-${effect}`);
  created.write({
    sources: {
      fixture: {
        kind: "mcp",
        stdio: { command: process.execPath, args: [FIXTURE] },
        effects: { mutable: effect, control: "write" },
      },
    },
  });
  await compile({ config: created.configPath, env: {} });
  return created;
}

async function routerOf(root: TempProject, relistBefore?: McpRelistPolicy): Promise<SchemaRouter> {
  return SchemaRouter.load({
    root: root.dir,
    policy: new ExecutionPolicy({ allowMutations: true }),
    bindings: {
      fixture: {
        mcp: { stdio: { command: process.execPath, args: [FIXTURE], stderr: "ignore" } },
        timeoutMs: 5_000,
        ...(relistBefore !== undefined ? { relistBefore } : {}),
      },
    },
  });
}

function pin(router: SchemaRouter, endpoint: string, args: Record<string, unknown> = {}) {
  const registered = router.registry.get("fixture")!;
  return {
    tool: "fixture",
    endpoint,
    arguments: args,
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  };
}

/** Changes `mutable`'s definition on the server with no list_changed notification. */
const silentChange = (router: SchemaRouter) =>
  router.call(pin(router, "control", { action: "describe", silent: true }));

let writeProject: TempProject;
let readProject: TempProject;
beforeAll(async () => {
  writeProject = await project("write");
  readProject = await project("read");
}, 60_000);

describe("calls after a silent definition change", () => {
  it("a write call re-lists first and is refused with REMOTE_DRIFT", async () => {
    const router = await routerOf(writeProject);
    try {
      await expect(router.call(pin(router, "mutable"))).resolves.toBeDefined();
      await silentChange(router);
      await expect(router.call(pin(router, "mutable"))).rejects.toMatchObject({
        code: "REMOTE_DRIFT",
        details: { tool: "mutable", change: "changed" },
      });
    } finally {
      await router.close();
    }
  });

  it("a read call is refused too with relistBefore: every-call", async () => {
    const router = await routerOf(readProject, "every-call");
    try {
      await expect(router.call(pin(router, "mutable"))).resolves.toBeDefined();
      await silentChange(router);
      await expect(router.call(pin(router, "mutable"))).rejects.toMatchObject({ code: "REMOTE_DRIFT" });
    } finally {
      await router.close();
    }
  });

  it("by default a read relies on the last listing (the documented guarantee for reads)", async () => {
    const router = await routerOf(readProject);
    try {
      await silentChange(router);
      // No listing has seen the change: the read runs; the next write or list_changed catches it.
      await expect(router.call(pin(router, "mutable"))).resolves.toBeDefined();
      await expect(
        router.call(pin(router, "control", { action: "reset", silent: true })),
      ).resolves.toBeDefined();
    } finally {
      await router.close();
    }
  });
});
