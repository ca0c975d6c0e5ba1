/** Snapshots and atomic reload (docs/runtime/snapshots.md). */
import { copyFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PetstoreServer } from "../../../examples/petstore/server.mjs";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import { InflightInvocations } from "../../../runtime/boundary/inflight.js";
import type { Invoker } from "../../../runtime/boundary/invoker.js";
import type { ToolResult } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { registryOf, tool } from "../../fixtures/catalogs.js";
import { runCli } from "../../helpers/cli.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

/** A compiled Petstore project whose getPetById returns the pet's name under `nameKey`. */
async function compiled(nameKey: string): Promise<TempProject> {
  const project = tempProject(`reload-${nameKey}`);
  copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
  project.write({
    sources: {
      petstore: {
        kind: "openapi",
        location: "petstore.yaml",
        overlays: {
          endpoints: {
            getPetById: {
              replaceFields: true,
              fields: [
                { id: "id", path: ["id"], identifier: true },
                { id: nameKey, path: ["name"], resultPath: [nameKey] },
              ],
            },
          },
        },
      },
    },
  });
  const result = await runCli(project.dir, ["compile"]);
  if (result.code !== 0) throw new Error(result.stderr);
  return project;
}

/** Publishes a compiled project into `live` the way a deploy should: artifacts first, lockfile last, each renamed into place. */
function publish(from: TempProject, live: string, options: { withLock?: boolean } = {}): void {
  const artifact = join("generated", "artifacts", "petstore.json");
  mkdirSync(join(live, "generated", "artifacts"), { recursive: true });
  copyFileSync(join(from.dir, artifact), join(live, `${artifact}.tmp`));
  renameSync(join(live, `${artifact}.tmp`), join(live, artifact));
  // A compile writes the retrieval index the lock pins before the lock (compiler/emit/retrieval-index.ts).
  const index = join("generated", "retrieval-index.bin");
  copyFileSync(join(from.dir, index), join(live, `${index}.tmp`));
  renameSync(join(live, `${index}.tmp`), join(live, index));
  if (options.withLock === false) return;
  copyFileSync(from.lockfile, join(live, "schemarouter.lock.json.tmp"));
  renameSync(join(live, "schemarouter.lock.json.tmp"), join(live, "schemarouter.lock.json"));
}

let server: PetstoreServer;
let a: TempProject;
let b: TempProject;
beforeAll(async () => {
  server = await startPetstoreServer();
  [a, b] = await Promise.all([compiled("name"), compiled("petName")]);
});
afterAll(() => server.close());

function liveDir(): string {
  const live = tempProject("reload-live").dir;
  cpSync(join(a.dir, "generated"), join(live, "generated"), { recursive: true });
  copyFileSync(a.lockfile, join(live, "schemarouter.lock.json"));
  return live;
}

/** `getPetById rex`, pinned to whatever the registry says now, like a plan would. */
function getRex(router: SchemaRouter) {
  const registered = router.registry.get("petstore")!;
  return {
    tool: "petstore",
    endpoint: "getPetById",
    arguments: { petId: "rex" },
    endpointFingerprint: registered.endpointFingerprints.get("getPetById")!,
    toolFingerprint: registered.fingerprint,
  };
}

async function load(live: string): Promise<SchemaRouter> {
  return SchemaRouter.load({
    lockfile: join(live, "schemarouter.lock.json"),
    bindings: { petstore: { baseUrl: server.url } },
  });
}

describe("snapshots", () => {
  it("a snapshot id names one catalog: equal locks, equal ids; another lock, another id", async () => {
    const live = liveDir();
    const [first, second, other] = await Promise.all([
      load(live),
      SchemaRouter.load({ lockfile: a.lockfile }),
      SchemaRouter.load({ lockfile: b.lockfile }),
    ]);
    expect(first.snapshot!.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second.snapshot!.id).toBe(first.snapshot!.id);
    expect(other.snapshot!.id).not.toBe(first.snapshot!.id);
    expect(first.snapshot!.sources.map((source) => source.name)).toEqual(["petstore"]);
    await Promise.all([first.close(), second.close(), other.close()]);
  });

  it("reload with an unchanged lockfile swaps nothing", async () => {
    const router = await load(liveDir());
    const registry = router.registry;
    const result = await router.reload();
    expect(result.changed).toBe(false);
    expect(router.registry).toBe(registry);
    await router.close();
  });

  it("a router made from a registry has nothing to reload", async () => {
    const router = SchemaRouter.fromRegistry(registryOf([tool("t", [])]));
    await expect(router.reload()).rejects.toMatchObject({ code: "RELOAD_UNAVAILABLE" });
    expect(() => router.watch()).toThrow(expect.objectContaining({ code: "RELOAD_UNAVAILABLE" }));
    await router.close();
  });
});

describe("reload: every result belongs to exactly one snapshot", () => {
  it("calls running during reloads see the old snapshot or the new one, never a mix", async () => {
    const live = liveDir();
    const router = await load(live);
    const prints = new Map<string, { key: string; endpoint: string }>();
    for (const project of [a, b]) {
      const probe = await SchemaRouter.load({ lockfile: project.lockfile });
      const registered = probe.registry.get("petstore")!;
      prints.set(registered.fingerprint, {
        key: project === a ? "name" : "petName",
        endpoint: registered.endpointFingerprints.get("getPetById")!,
      });
      await probe.close();
    }
    const results: ToolResult[] = [];
    const refused: string[] = [];
    let stop = false;
    const caller = async () => {
      while (!stop) {
        try {
          const [result] = await router.invoke(getRex(router));
          results.push(result!);
        } catch (error) {
          refused.push((error as { code?: string }).code ?? String(error));
        }
      }
    };
    const callers = Array.from({ length: 8 }, caller);
    const swaps: boolean[] = [];
    for (let round = 0; round < 8; round++) {
      publish(round % 2 === 0 ? b : a, live);
      swaps.push((await router.reload()).changed);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    stop = true;
    await Promise.all(callers);
    expect(swaps).toEqual(Array(8).fill(true));
    expect(results.length).toBeGreaterThan(20);
    for (const result of results) {
      const snapshot = prints.get(result.toolFingerprint);
      expect(snapshot, "a result's tool fingerprint is one snapshot's").toBeDefined();
      expect(result.endpointFingerprint).toBe(snapshot!.endpoint);
      // The projection is the same snapshot's: its key, and only its key, besides the identifier.
      expect(Object.keys(result.data as object).sort()).toEqual(["id", snapshot!.key].sort());
      expect((result.data as Record<string, unknown>)[snapshot!.key]).toBe("Rex");
    }
    // A call pinned to a snapshot that was swapped out is refused, never run against the other.
    expect(new Set(refused)).toEqual(new Set(refused.length > 0 ? ["STALE_FINGERPRINT"] : []));
    await router.close();
  });

  it("a half-published successor is refused and the current snapshot stays in use", async () => {
    const live = liveDir();
    const router = await load(live);
    const before = router.snapshot!;
    // New artifact, old lockfile: the lock no longer matches the artifact's digest.
    publish(b, live, { withLock: false });
    const lock = readFileSync(join(live, "schemarouter.lock.json"), "utf8");
    writeFileSync(join(live, "schemarouter.lock.json"), `${lock.trimEnd()}\n\n`);
    await expect(router.reload()).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
    expect(router.snapshot).toBe(before);
    const [result] = await router.invoke(getRex(router));
    expect(result!.data).toEqual({ id: "rex", name: "Rex" });
    await router.close();
  });

  it("watch() reloads when the lockfile changes", async () => {
    const live = liveDir();
    const router = await load(live);
    const before = router.snapshot!.id;
    const reloaded = new Promise<string>((resolve, reject) => {
      router.watch({ intervalMs: 20, onReload: (result) => resolve(result.snapshot.id), onError: reject });
    });
    publish(b, live);
    const id = await reloaded;
    expect(id).not.toBe(before);
    expect(router.snapshot!.id).toBe(id);
    await router.close();
  });

  it("watch() reloads a lockfile published between load() and watch()", async () => {
    const live = liveDir();
    const router = await load(live);
    const before = router.snapshot!.id;
    // Published before watching began: the watch starts from the file the snapshot was read from,
    // so the change is seen at the first poll rather than taken as the starting point.
    publish(b, live);
    const id = await new Promise<string>((resolve, reject) => {
      router.watch({ intervalMs: 20, onReload: (result) => resolve(result.snapshot.id), onError: reject });
    });
    expect(id).not.toBe(before);
    expect(router.snapshot!.id).toBe(id);
    await router.close();
  });

  it("watch() reports a removed lockfile and keeps the snapshot in use", async () => {
    const live = liveDir();
    const router = await load(live);
    const before = router.snapshot!;
    const error = new Promise<unknown>((resolve) => {
      router.watch({ intervalMs: 20, onError: resolve });
    });
    rmSync(join(live, "schemarouter.lock.json"));
    expect(await error).toMatchObject({ code: "LOCK_NOT_FOUND" });
    expect(router.snapshot).toBe(before);
    await router.close();
  });
});

describe("in-flight invocations", () => {
  it("an invoker is idle only once every running invocation has settled", async () => {
    const inflight = new InflightInvocations();
    const invoker: Invoker = { invoke: async () => undefined };
    await inflight.idle(invoker);
    inflight.enter(invoker);
    inflight.enter(invoker);
    let idle = false;
    const waiting = inflight.idle(invoker).then(() => {
      idle = true;
    });
    inflight.leave(invoker);
    await Promise.resolve();
    expect(idle).toBe(false);
    inflight.leave(invoker);
    await waiting;
    expect(idle).toBe(true);
  });
});
