/**
 * Provenance URLs in artifacts never carry userinfo, query strings or fragments, whatever form the
 * document wrote them in (docs/trust-model.md, core invariants; docs/sources/openapi.md).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitArtifact } from "../../../../compiler/emit/artifact.js";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import { sanitizeLocation } from "../../../../runtime/format/url.js";
import { type TempProject, tempProject } from "../../../helpers/project.js";

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
});

const SECRETS = ["alice", "s3cret", "K-1", "T-2", "frag", "bob", "pw-3", "tok"];

describe("server URLs in every form", () => {
  it.each([
    ["https://bob:pw-3@api.example/v3?k=K-1#frag", "https://api.example/v3"],
    ["//alice:s3cret@api.example/v1?api_key=K-1#frag", "//api.example/v1"],
    ["/v2?token=T-2#frag", "/v2"],
    ["v2#frag", "v2"],
    ["?tok", ""],
  ])("sanitizeLocation(%j) is %j", (given, want) => {
    expect(sanitizeLocation(given)).toBe(want);
  });

  it("are persisted without their secrets, and the base path is the path alone", async () => {
    const project = tempProject("provenance");
    projects.push(project);
    const location = join(project.dir, "openapi.json");
    writeFileSync(
      location,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        servers: [
          { url: "//alice:s3cret@api.example/v1?api_key=K-1#frag" },
          { url: "/v2?token=T-2#frag" },
          { url: "https://bob:pw-3@api.example/v3?k=K-1" },
        ],
        paths: { "/x": { get: { operationId: "x", responses: { "204": { description: "none" } } } } },
      }),
    );
    const result = await openapiAdapter.resolve(
      "api",
      { kind: "openapi", location },
      { cwd: project.dir, env: {}, allowInsecureHttp: false },
    );
    const { text } = emitArtifact("api", "openapi", result);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(result.tools[0]!.execution).toMatchObject({ transport: "http", basePath: "/v1" });
    expect(result.tools[0]!.execution).not.toHaveProperty("origin");
    expect(text).toContain('"//api.example/v1"');
    expect(text).toContain('"/v2"');
    expect(text).toContain('"https://api.example/v3"');
  });
});
