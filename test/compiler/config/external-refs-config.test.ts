/**
 * `sources.<name>.externalRefs` in schemarouter.config.json (compiler/config/external-refs.ts): only on
 * openapi sources, `enabled` required, limits positive integers within bounds, nothing else; the
 * defaults fill in what is not given.
 */
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../compiler/config/config.js";
import { EXTERNAL_REFS_DEFAULTS, externalRefLimits } from "../../../compiler/config/external-refs.js";
import { failure } from "../../helpers/refusal.js";

const withRefs = (externalRefs: unknown, kind = "openapi") => ({
  sources: {
    api:
      kind === "openapi"
        ? { kind, location: "openapi.yaml", externalRefs }
        : { kind, module: "x.ts", externalRefs },
  },
});

describe("the externalRefs config", () => {
  it.each([
    ["enabled", { enabled: true }],
    ["disabled", { enabled: false }],
    ["every limit", { enabled: true, maxDocuments: 5, maxDepth: 2, maxBytes: 10, timeoutMs: 100 }],
  ])("accepts %s", (_, externalRefs) => {
    expect(() => validateConfig(withRefs(externalRefs), "config")).not.toThrow();
  });

  it.each([
    ["no enabled", {}],
    ["a string for enabled", { enabled: "yes" }],
    ["a zero depth", { enabled: true, maxDepth: 0 }],
    ["a fractional byte limit", { enabled: true, maxBytes: 1.5 }],
    ["a byte limit over 1 GiB", { enabled: true, maxBytes: 2 ** 31 }],
    ["an unknown limit", { enabled: true, maxFiles: 3 }],
    ["a boolean shorthand", true],
  ])("refuses %s (CONFIG_INVALID)", async (_, externalRefs) => {
    const error = await failure(
      Promise.resolve().then(() => validateConfig(withRefs(externalRefs), "config")),
    );
    expect(error.code).toBe("CONFIG_INVALID");
  });

  it("exists only on openapi sources", async () => {
    const error = await failure(
      Promise.resolve().then(() => validateConfig(withRefs({ enabled: true }, "local"), "c")),
    );
    expect(error.code).toBe("CONFIG_INVALID");
  });

  it("fills in the defaults", () => {
    expect(externalRefLimits({ enabled: true, maxDepth: 3 })).toEqual({
      ...EXTERNAL_REFS_DEFAULTS,
      maxDepth: 3,
    });
    expect(EXTERNAL_REFS_DEFAULTS).toEqual({
      maxDocuments: 100,
      maxDepth: 10,
      maxBytes: 32 * 1024 * 1024,
      timeoutMs: 60_000,
    });
  });
});
