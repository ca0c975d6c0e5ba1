/** The MCP source's config schema fragment. */
import { describe, expect, it } from "vitest";
import { mcpSourceConfigSchema } from "../../../../compiler/config/mcp-source.js";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";

describe("MCP source config schema fragment", () => {
  const validator = new ValidatorSet();
  it.each<[string, unknown, boolean]>([
    ["stdio with an env allowlist", { kind: "mcp", stdio: { command: "node", env: ["HOME"] } }, true],
    [
      "url with env headers",
      { kind: "mcp", url: "https://mcp.example.com/mcp", headers: { authorization: { env: "T" } } },
      true,
    ],
    ["both stdio and url", { kind: "mcp", stdio: { command: "node" }, url: "https://a.example/mcp" }, false],
    ["neither stdio nor url", { kind: "mcp" }, false],
    ["headers with stdio", { kind: "mcp", stdio: { command: "node" }, headers: { a: { env: "T" } } }, false],
    [
      "a literal header value",
      { kind: "mcp", url: "https://a.example/mcp", headers: { authorization: "Bearer x" } },
      false,
    ],
    ["a query string", { kind: "mcp", url: "https://a.example/mcp?token=x" }, false],
    ["an unknown effect", { kind: "mcp", stdio: { command: "node" }, effects: { t: "safe" } }, false],
  ])("%s → valid: %s", (_name, config, valid) => {
    expect(validator.validate(mcpSourceConfigSchema, config).length === 0).toBe(valid);
  });
});
