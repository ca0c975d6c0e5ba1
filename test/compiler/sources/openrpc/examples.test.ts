/**
 * Every document of `@open-rpc/examples` compiles (a table over the package's files, so a new one
 * fails here until its row says what it gives): the endpoints, how their params travel, their
 * fields, what is partial, and nothing left out. Compiling twice gives identical results.
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSource } from "../../../../compiler/compile/compile.js";
import type { OpenRpcSourceConfig } from "../../../../compiler/config/config.js";
import type { SourceContext } from "../../../../compiler/sources/types.js";
import { canonicalJson } from "../../../../runtime/format/fingerprint.js";

const require = createRequire(import.meta.url);
const DIR = dirname(
  require.resolve("@open-rpc/examples/build/service-descriptions/simple-math-openrpc.json"),
);
const context: SourceContext = { cwd: process.cwd(), env: {}, allowInsecureHttp: false };
const config = (file: string): OpenRpcSourceConfig => ({
  kind: "openrpc",
  location: `${DIR}/${file}`,
  url: "https://rpc.example.org/",
});

interface Want {
  /** `name params fields…` per endpoint, in document order. */
  readonly endpoints: readonly string[];
  readonly defs: readonly string[];
  /** `construct pointer` of every partial entry of the compatibility report. */
  readonly partial: readonly string[];
}

// biome-ignore format: one row per document
const EXAMPLES: Readonly<Record<string, Want>> = {
  "api-with-examples-openrpc.json": {
    endpoints: ["get_versions by-position result", "get_version_details by-position result"],
    defs: [],
    partial: ["examples /methods/0/examples", "examples /methods/1/examples"],
  },
  "link-example-openrpc.json": {
    endpoints: [
      "get_user_by_name by-position username uuid",
      "get_repositories_by_owner by-position [].slug [].owner",
      "get_repository by-position slug owner",
      "get_pull_requests_by_repository by-position [].id [].title [].repository [].author",
      "get_pull_requests_by_id by-position id title repository author",
      "merge_pull_request by-position result",
    ],
    defs: ["pullrequest", "repository", "user"],
    partial: ["links /methods/0/links", "links /methods/1/links", "links /methods/2/links", "links /methods/4/links"],
  },
  "params-by-name-petstore-openrpc.json": {
    endpoints: ["list_pets by-name [].id [].name [].tag", "create_pet by-name result", "get_pet by-position [].id [].name [].tag"],
    defs: ["Pet", "Pets"],
    partial: ["examples /methods/0/examples"],
  },
  "petstore-expanded-openrpc.json": {
    endpoints: ["get_pets by-position result", "create_pet by-position result", "get_pet_by_id by-position result", "delete_pet_by_id by-position result"],
    defs: ["NewPet", "Pet"],
    partial: ["composition /components/schemas/Pet/allOf"],
  },
  "petstore-openrpc.json": {
    endpoints: ["list_pets by-position [].id [].name [].tag", "create_pet by-position result", "get_pet by-position id name tag"],
    defs: ["Pet", "PetId", "Pets"],
    partial: ["examples /methods/0/examples", "examples /methods/1/examples", "examples /methods/2/examples"],
  },
  "simple-math-openrpc.json": {
    endpoints: ["addition by-position result", "subtraction by-position result"],
    defs: ["Integer"],
    partial: ["examples /methods/0/examples", "links /methods/0/links", "examples /methods/1/examples", "links /methods/1/links"],
  },
};

describe("@open-rpc/examples", () => {
  it("has a row for every document the package ships", () => {
    expect(
      readdirSync(DIR)
        .filter((file) => file.endsWith(".json"))
        .sort(),
    ).toEqual(Object.keys(EXAMPLES).sort());
  });

  for (const [file, want] of Object.entries(EXAMPLES)) {
    it(`compiles ${file}`, async () => {
      const result = await resolveSource("example", config(file), context);
      const tool = result.tools[0]!;
      expect(tool.execution).toEqual({ transport: "openrpc", rpcUrl: "https://rpc.example.org/" });
      expect(tool.accessMode).toBe("openrpc");
      expect(
        tool.endpoints.map((endpoint) => {
          const execution = endpoint.execution;
          if (execution.kind !== "openrpc") throw new Error("not an OpenRPC endpoint");
          expect(execution.rpcMethod).toBe(endpoint.name);
          return [endpoint.name, execution.paramStructure, ...endpoint.fields.map((field) => field.id)].join(
            " ",
          );
        }),
      ).toEqual(want.endpoints);
      expect(tool.endpoints.every((endpoint) => endpoint.effect === "unclassified")).toBe(true);
      expect(Object.keys(result.defs).sort()).toEqual(want.defs);
      expect(result.compatibility.filter((issue) => issue.level === "unsupported")).toEqual([]);
      expect(result.compatibility.filter((issue) => issue.leftOut !== undefined)).toEqual([]);
      expect(result.compatibility.map((issue) => `${issue.construct} ${issue.pointer}`).sort()).toEqual(
        [...want.partial].sort(),
      );
      const again = await resolveSource("example", config(file), context);
      expect(canonicalJson(again)).toBe(canonicalJson(result));
    });
  }

  it("sends by name what the document says is by-name, and the params' schemas resolve through components", async () => {
    const result = await resolveSource("example", config("params-by-name-petstore-openrpc.json"), context);
    const listPets = result.tools[0]!.endpoints.find((endpoint) => endpoint.name === "list_pets")!;
    expect(listPets.parameters).toEqual([
      {
        name: "limit",
        location: "argument",
        required: false,
        schema: { type: "integer" },
        description: "How many items to return at one time (max 100)",
      },
    ]);
    expect(listPets.outputSchema).toEqual({
      type: "object",
      required: ["result"],
      properties: { result: { $ref: "#/$defs/Pets" } },
    });
    expect(listPets.metadata).toMatchObject({ paramStructure: "by-name", tags: ["pets"] });
  });
});
