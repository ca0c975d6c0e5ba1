/**
 * The catalog builders, the seeded PRNG and the n-endpoint generator of test/fixtures/catalogs.ts,
 * the same module the tests use, transpiled for plain node by scripts/bench-fixtures.mjs (it imports
 * the built runtime in runtime/dist, which the benchmarks measure).
 */
import { benchFixture } from "../../scripts/bench-fixtures.mjs";

export const { endpoint, field, generatedCatalog, param, random, registryOf, tool } = await import(
  benchFixture("catalogs")
);
