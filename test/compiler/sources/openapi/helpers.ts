/** Fixture documents for the OpenAPI source tests: resolving them, reading their results, writing variants. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import { DefinitionSet, fingerprintTool } from "../../../../runtime/format/fingerprint.js";
import { decodePointerToken } from "../../../../runtime/model/json-pointer.js";
import type { EndpointSpec, ToolSpec } from "../../../../runtime/model/specs.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../../helpers/project.js";

export const SPECS = join(REPO_ROOT, "test", "fixtures", "specs");
export const context = { cwd: SPECS, env: {}, allowInsecureHttp: false };

export function readDoc(file: string): Record<string, unknown> {
  const text = readFileSync(join(SPECS, file), "utf8");
  return (file.endsWith(".json") ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
}

export async function resolve(location: string): Promise<SourceResult> {
  return openapiAdapter.resolve("pets", { kind: "openapi", location }, context);
}

export function toolOf(result: SourceResult): ToolSpec {
  expect(result.tools).toHaveLength(1);
  return result.tools[0]!;
}

export function endpointOf(result: SourceResult, name: string): EndpointSpec {
  const found = toolOf(result).endpoints.find((endpoint) => endpoint.name === name);
  if (found === undefined) throw new Error(`no endpoint ${name}`);
  return found;
}

export const names = (result: SourceResult) => toolOf(result).endpoints.map((endpoint) => endpoint.name);

/** Walks a JSON pointer through a parsed document; undefined when it does not resolve. */
export function atPointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const token of pointer.split("/").slice(1).map(decodePointerToken)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export function fingerprints(result: SourceResult): Map<string, string> {
  return new Map(fingerprintTool(toolOf(result), new DefinitionSet(result.defs)).endpoints);
}

export interface TempDocs {
  /** A temporary project, removed after the file's tests. */
  project(name: string): TempProject;
  /** Writes a document into a fresh temporary directory and returns its path. */
  writeDoc(doc: unknown, file?: string): string;
}

/** Call at module level: what the returned functions create is removed after the file's tests. */
export function tempDocs(): TempDocs {
  const projects: TempProject[] = [];
  afterAll(() => {
    for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
  });
  const project = (name: string): TempProject => {
    const created = tempProject(name);
    projects.push(created);
    return created;
  };
  return {
    project,
    writeDoc(doc, file = "openapi.json") {
      const path = join(project("oas-doc").dir, file);
      writeFileSync(path, file.endsWith(".json") ? JSON.stringify(doc) : stringifyYaml(doc));
      return path;
    },
  };
}
