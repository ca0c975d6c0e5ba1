/**
 * `schemarouter serve` setup with an OData source: its binding comes from `serve.bindings` (trusted
 * headers from environment variables, the locked service root), and the router it loads calls SAP
 * CAP on 127.0.0.1 with the credential.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSetup } from "../../../compiler/cli/serve-setup.js";
import { compile } from "../../../compiler/compile/compile.js";
import { loadConfig } from "../../../compiler/config/config.js";
import { type CapServer, startCapServer } from "../../fixtures/odata/cap-server.js";
import { tempProject } from "../../helpers/project.js";

let cap: CapServer;
const project = tempProject("serve-odata");

beforeAll(async () => {
  cap = await startCapServer();
  project.write({
    sources: { shop: { kind: "odata", location: cap.serviceRoot } },
    serve: { bindings: { shop: { headers: { authorization: { env: "SHOP_TOKEN", prefix: "Bearer " } } } } },
  });
  await compile({ config: project.configPath, env: {} });
}, 120_000);
afterAll(() => cap.close());

describe("serve bindings for OData sources", () => {
  it("binds the locked service root with headers from the environment", async () => {
    const setup = await serveSetup(await loadConfig(project.configPath), { SHOP_TOKEN: "s3cret" });
    const router = await setup.load();
    try {
      const registered = router.registry.get("shop")!;
      const result = await router.call({
        tool: "shop",
        endpoint: "Shop_get",
        arguments: {},
        fields: ["name"],
        endpointFingerprint: registered.endpointFingerprints.get("Shop_get")!,
        toolFingerprint: registered.fingerprint,
      });
      expect(result.data).toEqual({ name: "The Bookshop" });
      expect(cap.requests.at(-1)).toMatchObject({
        path: "/odata/v4/catalog/Shop",
        authorization: "Bearer s3cret",
      });
    } finally {
      await router.close();
      await setup.close();
    }
  });
});
