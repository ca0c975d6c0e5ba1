/**
 * The demo's OPTIMADE provider: the repository's spec-faithful fixture server (test/fixtures/optimade)
 * on a fixed loopback port, because the root config and lockfile name its base URL.
 */
import { startOptimadeServer } from "../../test/fixtures/optimade/server.js";

export const DEMO_OPTIMADE_PORT = 18473;

export function startDemoProvider() {
  return startOptimadeServer({ port: DEMO_OPTIMADE_PORT });
}
