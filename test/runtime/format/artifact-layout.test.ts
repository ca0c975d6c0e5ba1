/**
 * The version-2 artifact line layout: the file is exactly the canonical JSON with structural
 * newlines (one line per shared definition and per endpoint), compiles are byte-identical, a changed
 * endpoint is a one-line diff, and an endpoint's contract text is read off its line exactly.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { parseArtifact } from "../../../runtime/format/artifact-read.js";
import { contractTextOf } from "../../../runtime/format/contract-text.js";
import { canonicalJson, directDefRefs, endpointContract } from "../../../runtime/format/fingerprint.js";
import type { EndpointSpec } from "../../../runtime/model/specs.js";
import { itemText, lineGroups } from "../../helpers/forge.js";
import { copyInto, REPO_ROOT, type TempProject, tempProject } from "../../helpers/project.js";

const COMMITTED = join(REPO_ROOT, "examples/generated/artifacts");

function petstore(name: string): TempProject {
  const project = tempProject(name);
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  return project;
}

const artifactOf = (project: TempProject) =>
  readFileSync(join(project.outDir, "artifacts", "petstore.json"), "utf8");

describe("artifact line layout", () => {
  it.each(readdirSync(COMMITTED))("%s: the canonical value, one line per definition and endpoint", (file) => {
    const text = readFileSync(join(COMMITTED, file), "utf8");
    const value = JSON.parse(text);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.replaceAll("\n", "")).toBe(canonicalJson(value));
    expect(parseArtifact(text, file)).toEqual(value);
    const lines = text.split("\n");
    const groups = lineGroups(lines);
    expect(groups.defs.map((at) => itemText(lines[at]!))).toEqual(
      Object.keys(value.$defs).map((name) => `${JSON.stringify(name)}:${canonicalJson(value.$defs[name])}`),
    );
    expect(groups.endpoints.map((group) => group.map((at) => itemText(lines[at]!)))).toEqual(
      value.tools.map((tool: { endpoints: unknown[] }) => tool.endpoints.map((e) => canonicalJson(e))),
    );
    // Each top-level member starts a line; the digest has its own.
    const topLevel = [lines[0]!, ...lines.filter((line) => line.startsWith(',"'))].map(
      (line) => line.slice(2).split('"')[0],
    );
    expect(topLevel).toEqual(Object.keys(value));
    expect(lines).toContain(`,"digest":${JSON.stringify(value.digest)}`);
    expect(value.endpointIndex).toEqual(
      Object.fromEntries(
        value.tools.map((tool: { name: string; endpoints: EndpointSpec[] }) => [
          tool.name,
          tool.endpoints.map((endpoint) => [endpoint.name, endpoint.effect]),
        ]),
      ),
    );
  });

  it("is byte-identical across compiles, full or incremental", async () => {
    const a = petstore("layout-a");
    const b = petstore("layout-b");
    await compile({ config: a.configPath });
    await compile({ config: b.configPath, incremental: false });
    const first = artifactOf(a);
    expect(artifactOf(b)).toBe(first);
    await compile({ config: a.configPath, incremental: false });
    expect(artifactOf(a)).toBe(first);
  });

  it("turns a changed operation into a one-line diff (plus the digest and document digest lines)", async () => {
    const project = petstore("layout-diff");
    await compile({ config: project.configPath });
    const before = artifactOf(project).split("\n");
    const document = join(project.dir, "openapi.yaml");
    const yaml = readFileSync(document, "utf8");
    expect(yaml).toContain("Remove a pet.");
    writeFileSync(document, yaml.replace("Remove a pet.", "Remove a pet for good."));
    await compile({ config: project.configPath });
    const after = artifactOf(project).split("\n");
    expect(after).toHaveLength(before.length);
    const changed = after.filter((line, index) => line !== before[index]);
    expect(changed).toHaveLength(3);
    expect(changed[0]).toMatch(/^,"digest":/);
    expect(changed[1]).toMatch(/^,"source":\{"documentDigest":/);
    expect(changed[2]).toMatch(/^\{"description":"Remove a pet for good\."/);
  });
});

describe("contract text read off an endpoint line", () => {
  const base = {
    description: 'has "metadata": {} and } ] , \\ in it',
    effect: "read",
    execution: { kind: "http", method: "get", path: "/x", successStatus: [200] },
    fields: [],
    inputSchema: {
      properties: { metadata: { $ref: "#/$defs/Meta" }, name: { type: "string" } },
      type: "object",
    },
    name: "get_x",
    outputSchema: { $ref: "#/$defs/Out~1put" },
    parameters: [],
  };
  const cases: Array<[string, Record<string, unknown>]> = [
    ["no metadata", base],
    ["metadata between inputSchema and name", { ...base, metadata: { a: [1, { b: "}" }], c: '"' } }],
    ["metadata with $refs that do not count", { ...base, metadata: { $ref: "#/$defs/NotUsed" } }],
    ["an empty metadata", { ...base, metadata: {} }],
  ];
  it.each(cases)("%s", (_name, endpoint) => {
    const text = canonicalJson(endpoint);
    const contract = contractTextOf(Buffer.from(text), { start: 0, end: Buffer.byteLength(text) });
    const contractOf = endpointContract(endpoint as unknown as EndpointSpec);
    expect(Buffer.concat(contract.pieces).toString()).toBe(canonicalJson(contractOf));
    expect([...contract.refs].sort()).toEqual([...directDefRefs(contractOf)].sort());
  });

  it.each([
    ["metadata as the first member", '{"metadata":{"a":1},"name":"x"}', '{"name":"x"}'],
    ["metadata as the only member", '{"metadata":[1,2]}', "{}"],
    ["a nested metadata member only", '{"a":{"metadata":1},"name":"x"}', '{"a":{"metadata":1},"name":"x"}'],
    // A forger's variants keep bytes the canonical contract does not have, so no fingerprint matches.
    ["a second metadata member", '{"metadata":1,"metadata":2}', '{"metadata":2}'],
    ["an escaped key", '{"m\\u0065tadata":1,"name":"x"}', '{"m\\u0065tadata":1,"name":"x"}'],
  ])("cuts exactly the first top-level member: %s", (_name, text, contract) => {
    const pieces = contractTextOf(Buffer.from(text), { start: 0, end: text.length }).pieces;
    expect(Buffer.concat(pieces).toString()).toBe(contract);
  });

  it("gives every committed endpoint's line its exact contract text", () => {
    for (const file of readdirSync(COMMITTED)) {
      const text = readFileSync(join(COMMITTED, file), "utf8");
      const bytes = Buffer.from(text);
      for (const tool of parseArtifact(text, file).tools) {
        for (const endpoint of tool.endpoints) {
          const line = Buffer.from(canonicalJson(endpoint));
          const at = bytes.indexOf(line);
          expect(at).toBeGreaterThan(0);
          const contract = contractTextOf(bytes, { start: at, end: at + line.length });
          expect(Buffer.concat(contract.pieces).toString()).toBe(canonicalJson(endpointContract(endpoint)));
        }
      }
    }
  });
});
