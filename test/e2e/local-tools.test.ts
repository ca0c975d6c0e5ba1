/**
 * Local TypeScript tools as a source kind: compile a .ts module → lock → bind the same definition at
 * run time; a definition that changed since compile is refused.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { defineLocalTool, type LocalToolDefinition } from "../../runtime/transports/local/transport.js";
import weather from "../fixtures/local/weather.js";
import { REPO_ROOT, tempProject } from "../helpers/project.js";

async function project(overlays?: Record<string, unknown>) {
  const p = tempProject("local");
  p.write({
    sources: {
      weather: {
        kind: "local",
        module: join(REPO_ROOT, "test/fixtures/local/weather.ts"),
        ...(overlays ? { overlays } : {}),
      },
    },
  });
  await compile({ config: p.configPath });
  return p;
}

describe("local tools", () => {
  it("compiles a TypeScript module and runs it through the boundary", async () => {
    const p = await project({
      endpoints: {
        current: {
          fields: [
            {
              id: "temperature",
              path: ["temperature"],
              unit: "Cel",
              normalization: { canonicalUnit: "K", scale: 1, offset: 273.15 },
            },
          ],
        },
      },
    });
    const router = await SchemaRouter.load({ root: p.dir, local: { weather } });
    const registered = router.registry.get("weather")!;
    expect(registered.tool.remote).toBe(false);
    const call = {
      tool: "weather",
      endpoint: "current",
      endpointFingerprint: registered.endpointFingerprints.get("current")!,
      toolFingerprint: registered.fingerprint,
    };
    await expect(
      router.call({ ...call, arguments: { station: "SEL" }, fields: ["temperature"] }),
    ).resolves.toMatchObject({ data: { temperature: 294.65 } });
    await expect(router.call({ ...call, arguments: { station: "S" } })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
    });
    await router.close();
  });

  it("refuses a local definition that changed since it was compiled", async () => {
    const p = await project();
    const changed = defineLocalTool({
      ...weather,
      endpoints: [{ ...weather.endpoints[0]!, effect: "write" }],
    });
    await expect(SchemaRouter.load({ root: p.dir, local: { weather: changed } })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { reason: "local-definition-changed" },
    });
  });

  it("shares the root $defs of its schemas, so a $ref to one compiles, pins and validates", async () => {
    const p = tempProject("local-defs");
    const address = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    /** A module whose endpoint's input and output both define $defs.address (`output` as given). */
    const module = (outputAddress: unknown) => {
      const input = {
        type: "object",
        $defs: { address },
        properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
        required: ["name"],
        additionalProperties: false,
      };
      const output = {
        type: "object",
        $defs: { address: outputAddress },
        properties: { address: { $ref: "#/$defs/address" } },
      };
      return [
        "export default {",
        '  name: "contacts",',
        `  endpoints: [{ name: "add", effect: "write", input: ${JSON.stringify(input)}, output: ${JSON.stringify(output)},`,
        "    handler: (args) => ({ address: args.address }) }],",
        "};",
        "",
      ].join("\n");
    };
    writeFileSync(join(p.dir, "contacts.mjs"), module(address));
    p.write({ sources: { contacts: { kind: "local", module: "contacts.mjs" } } });
    await compile({ config: p.configPath });
    const definition = ((await import(join(p.dir, "contacts.mjs"))) as { default: LocalToolDefinition })
      .default;
    const router = await SchemaRouter.load({
      root: p.dir,
      verify: "full",
      local: { contacts: definition },
      policy: new ExecutionPolicy({ allowMutations: true }),
    });
    const registered = router.registry.get("contacts")!;
    expect(Object.keys(registered.defs.defs)).toEqual(["address"]);
    const call = (args: Record<string, unknown>) =>
      router.call({
        tool: "contacts",
        endpoint: "add",
        arguments: args,
        endpointFingerprint: registered.endpointFingerprints.get("add")!,
        toolFingerprint: registered.fingerprint,
      });
    await expect(call({ name: "Ada", address: { city: "Seoul" } })).resolves.toMatchObject({
      data: { address: { city: "Seoul" } },
    });
    await expect(call({ name: "Ada", address: { city: 7 } })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
    });
    await router.close();

    writeFileSync(join(p.dir, "contacts.mjs"), module({ type: "string" }));
    await expect(compile({ config: p.configPath })).rejects.toMatchObject({
      code: "LOCAL_MODULE_INVALID",
      message: expect.stringContaining("define $defs.address differently"),
    });
  });

  it("reports a module without a tool definition", async () => {
    const p = tempProject("local-bad");
    copyFileSync(join(REPO_ROOT, "test/helpers/project.ts"), join(p.dir, "not-a-tool.ts"));
    p.write({ sources: { broken: { kind: "local", module: "not-a-tool.ts", export: "REPO_ROOT" } } });
    await expect(compile({ config: p.configPath })).rejects.toMatchObject({ code: "LOCAL_MODULE_INVALID" });
  });
});
