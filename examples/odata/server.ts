/**
 * The demo's OData service: SAP CAP serving the repository's bookshop model
 * (test/fixtures/odata/bookshop-model.ts) on a fixed loopback port, because the root config and lockfile
 * name its service root. examples/odata/catalog.xml is the CSDL CAP generates for that model
 * (`cds.compile.to.edmx(…, { odataFormat: "structured" })`), committed so the example compiles offline.
 */
import { startCapServer } from "../../test/fixtures/odata/cap-server.js";

export const DEMO_ODATA_PORT = 18474;

export function startDemoService() {
  return startCapServer({ port: DEMO_ODATA_PORT });
}
