/**
 * A missing optional peer is OPTIONAL_DEPENDENCY_MISSING naming the package and the install command
 * (docs/common-mistakes.md); the MCP transport loads its SDK through the same helper.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPeer, MCP_SDK } from "../../../runtime/errors/optional-peer.js";
import { REPO_ROOT } from "../../helpers/project.js";

describe("optional peers", () => {
  it("a module that is not installed names the package to install", async () => {
    const missing = "schemarouter-peer-that-is-not-installed";
    await expect(loadPeer(MCP_SDK, "An MCP binding", () => import(missing))).rejects.toMatchObject({
      code: "OPTIONAL_DEPENDENCY_MISSING",
      message:
        "An MCP binding needs the optional peer dependency @modelcontextprotocol/sdk: run `npm install @modelcontextprotocol/sdk`.",
      details: { dependency: "@modelcontextprotocol/sdk" },
    });
  });

  it("an installed peer loads", async () => {
    const sdk = await loadPeer(MCP_SDK, "An MCP binding", () => import("@modelcontextprotocol/sdk/types.js"));
    expect(typeof sdk.ResultSchema).toBe("object");
  });

  it("every runtime import of the MCP SDK goes through loadPeer", () => {
    for (const file of ["client.ts", "list.ts", "stdio.ts", "transport.ts"]) {
      const text = readFileSync(join(REPO_ROOT, "runtime/transports/mcp", file), "utf8");
      const bare = text.match(/await import\(\s*"@modelcontextprotocol\/sdk[^"]*"\s*\)/g) ?? [];
      expect([file, bare]).toEqual([file, []]);
      expect(text).toContain("loadPeer(");
    }
  });
});
