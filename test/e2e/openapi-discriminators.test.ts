/**
 * Discriminators end to end: GitHub's real `users/get-by-username` (oneOf private-user/public-user,
 * discriminated by `user_view_type` with a mapping) compiled, typed as a discriminated union, and its
 * responses validated by the branch the discriminator names; table-driven documents of our own for
 * implicit mappings, anyOf, request bodies, and what stays partial (reported, validated as written).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import type { CompatibilityIssue, EndpointSpec } from "../../runtime/model/specs.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { REPO_ROOT, tempProject, writeInto } from "../helpers/project.js";
import { typecheckDirectory } from "../helpers/typecheck.js";

type Node = Record<string, unknown>;
const github = JSON.parse(
  readFileSync(join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8"),
) as Record<string, Node>;
const examples = github.components!.examples as Record<string, { value: Node }>;
/** GitHub's own example of a public user (it carries no `user_view_type`). */
const octocat = examples["public-user-default-response"]!.value;

const pets = {
  openapi: "3.0.3",
  info: { title: "pets", version: "1" },
  paths: {
    "/pets": {
      post: {
        operationId: "addPet",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
                discriminator: { propertyName: "petType", mapping: { kitty: "Cat" } },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: "object",
        required: ["petType"],
        properties: { petType: { type: "string" } },
        discriminator: { propertyName: "petType" },
      },
      Cat: {
        type: "object",
        required: ["petType", "meows"],
        properties: { petType: { type: "string" }, meows: { type: "boolean" } },
      },
      Dog: {
        type: "object",
        required: ["petType", "barks"],
        properties: { petType: { type: "string" }, barks: { type: "boolean" }, name: { type: "string" } },
      },
    },
  },
};

const project = tempProject("discriminators");
let server: TestServer;
let answer: unknown = octocat;

beforeAll(async () => {
  writeInto(
    project,
    "github.json",
    JSON.stringify({
      openapi: github.openapi,
      info: github.info,
      paths: { "/users/{username}": github.paths!["/users/{username}"] },
      components: github.components,
    }),
  );
  writeInto(project, "pets.json", JSON.stringify(pets));
  project.write({
    sources: {
      github: { kind: "openapi", location: "github.json" },
      pets: { kind: "openapi", location: "pets.json" },
    },
  });
  await compile({ config: project.configPath });
  server = await startServer((_request, response) => sendJson(response, 200, answer));
}, 120_000);
afterAll(() => server.close());

async function client() {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { github: { baseUrl: server.url }, pets: { baseUrl: server.url } },
    policy: new ExecutionPolicy({ allowMutations: true }),
  });
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return { router, api: createClient(router) };
}

function artifact(source: string): {
  tools: { endpoints: EndpointSpec[] }[];
  compatibility: CompatibilityIssue[];
} {
  return JSON.parse(readFileSync(join(project.outDir, "artifacts", `${source}.json`), "utf8"));
}

describe("GitHub users/get-by-username (oneOf + discriminator mapping)", () => {
  it("is typed as a discriminated union in the bindings", () => {
    const types = readFileSync(join(project.outDir, "github.schemas.d.ts"), "utf8");
    expect(types).toMatch(/\(PrivateUser & \{\s+user_view_type\?: "private";\s+\}\)/);
    expect(types).toMatch(/\(PublicUser & \{\s+user_view_type\?: "public";\s+\}\)/);
    const endpoint = artifact("github").tools[0]!.endpoints.find(
      (entry) => entry.name === "users/get-by-username",
    )!;
    expect(endpoint.outputSchema).toMatchObject({
      discriminator: {
        propertyName: "user_view_type",
        mapping: { public: "#/$defs/public-user", private: "#/$defs/private-user" },
        propertyRequired: false,
      },
    });
  });

  it("a value naming its branch is validated against that branch only; GitHub's example without the property as written", async () => {
    const { router, api } = await client();
    answer = octocat;
    expect((await api.github.usersGetByUsername({ username: "octocat" })).data).toMatchObject({
      login: "octocat",
    });
    answer = { ...octocat, user_view_type: "public" };
    expect((await api.github.usersGetByUsername({ username: "octocat" })).data).toMatchObject({
      user_view_type: "public",
    });
    // Claims to be private but lacks the private fields: the error is the private branch's, not oneOf's.
    answer = { ...octocat, user_view_type: "private" };
    const wrong = await api.github
      .usersGetByUsername({ username: "octocat" })
      .catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: "OUTPUT_SCHEMA_VIOLATION" });
    expect((wrong as Error).message).toMatch(
      /must have required property '(collaborators|disk_usage|owned_private_repos|private_gists|total_private_repos|two_factor_authentication)'/,
    );
    expect((wrong as Error).message).not.toContain("oneOf");
    answer = { ...octocat, user_view_type: "robot" };
    const unknown = await api.github
      .usersGetByUsername({ username: "octocat" })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: "OUTPUT_SCHEMA_VIOLATION" });
    expect((unknown as Error).message).toContain(
      "/user_view_type must be equal to one of the allowed values",
    );
    await router.close();
  });
});

describe("discriminators in our own documents", () => {
  it("a request body dispatches by mapping (bare schema name) and by implicit schema name", async () => {
    const { router, api } = await client();
    answer = { petType: "Dog", barks: true };
    await api.pets.addPet({ body: { petType: "kitty", meows: true } });
    await api.pets.addPet({ body: { petType: "Dog", barks: true } });
    const before = server.requests.length;
    const wrong = await api.pets
      .addPet({ body: { petType: "Dog", meows: true } })
      .catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
    expect((wrong as Error).message).toContain("must have required property 'barks'");
    // "Cat" is not a value: the explicit mapping names it "kitty".
    const cat = await api.pets
      .addPet({ body: { petType: "Cat", meows: true } })
      .catch((error: unknown) => error);
    expect((cat as Error).message).toContain("/body/petType must be equal to one of the allowed values");
    expect(server.requests.length).toBe(before);
    const types = readFileSync(join(project.outDir, "pets.schemas.d.ts"), "utf8");
    expect(types).toMatch(/\(Cat & \{\s+petType: "kitty";\s+\}\) \| \(Dog & \{\s+petType: "Dog";\s+\}\)/);
    await router.close();
  });

  it("the union narrows on the discriminator under tsc --strict; a property of the other branch is an error", () => {
    const file = writeInto(
      project,
      join("generated", "narrowing.ts"),
      [
        'import type { AddPetInput } from "./pets.schemas.js";',
        'export function noise(pet: AddPetInput["body"]): boolean {',
        '  if (pet.petType === "kitty") return pet.meows;',
        "  return pet.barks;",
        "}",
        'export function wrong(pet: AddPetInput["body"]): boolean {',
        '  if (pet.petType === "kitty") return pet.barks;',
        "  return false;",
        "}",
        "",
      ].join("\n"),
    );
    const diagnostics = typecheckDirectory(project.outDir).filter((line) => line.startsWith("narrowing.ts"));
    expect(diagnostics).toEqual([
      expect.stringMatching(/^narrowing\.ts: TS2339 Property 'barks' does not exist/),
    ]);
    expect(file).toContain("narrowing.ts");
  });

  it("a discriminator on an allOf parent (no oneOf/anyOf) is reported and the schema validated as written", () => {
    expect(artifact("pets").compatibility).toContainEqual(
      expect.objectContaining({
        pointer: "/components/schemas/Pet/discriminator",
        construct: "discriminator",
        level: "partial",
        message: expect.stringContaining("without oneOf/anyOf"),
      }),
    );
  });

  it.each<[string, Node, string | undefined]>([
    [
      "implicit names over anyOf",
      {
        anyOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }],
        discriminator: { propertyName: "k" },
      },
      undefined,
    ],
    [
      "an inline branch without a mapping",
      {
        oneOf: [{ $ref: "#/components/schemas/A" }, { type: "object" }],
        discriminator: { propertyName: "k" },
      },
      "is inline",
    ],
    [
      "a mapping to a schema that does not exist",
      {
        oneOf: [{ $ref: "#/components/schemas/A" }],
        discriminator: { propertyName: "k", mapping: { x: "#/components/schemas/Missing" } },
      },
      "is not a schema in this document",
    ],
    [
      "a mapping to an external document",
      {
        oneOf: [{ $ref: "#/components/schemas/A" }],
        discriminator: { propertyName: "k", mapping: { x: "other.yaml#/A" } },
      },
      "is not a schema in this document",
    ],
    [
      "no propertyName",
      { oneOf: [{ $ref: "#/components/schemas/A" }], discriminator: {} },
      "no usable propertyName",
    ],
  ])("%s", async (_, schema, partial) => {
    const local = tempProject("discriminator-case");
    const doc = {
      openapi: "3.1.0",
      info: { title: "d", version: "1" },
      paths: {
        "/x": {
          get: {
            operationId: "getX",
            responses: { "200": { description: "ok", content: { "application/json": { schema } } } },
          },
        },
      },
      components: {
        schemas: {
          A: {
            type: "object",
            required: ["k"],
            properties: { k: { type: "string" }, a: { type: "integer" } },
          },
          B: { type: "object", properties: { k: { type: "string" }, b: { type: "integer" } } },
        },
      },
    };
    writeInto(local, "d.json", JSON.stringify(doc));
    local.write({ sources: { d: { kind: "openapi", location: "d.json" } } });
    const result = await compile({ config: local.configPath, mode: "dry-run" });
    const compiled = result.sources[0]!.artifact;
    const output = compiled.tools[0]!.endpoints[0]!.outputSchema as Node;
    const reported = compiled.compatibility.filter((issue) => issue.construct === "discriminator");
    if (partial === undefined) {
      expect(reported).toEqual([]);
      expect(output.discriminator).toEqual({
        propertyName: "k",
        mapping: { A: "#/$defs/A", B: "#/$defs/B" },
        propertyRequired: false,
      });
    } else {
      expect(reported).toEqual([
        expect.objectContaining({ level: "partial", message: expect.stringContaining(partial) }),
      ]);
      // Not dispatched: the composition stays as written and no discriminator annotation is left.
      expect(output.discriminator).toBeUndefined();
      expect(output.oneOf ?? output.anyOf).toBeDefined();
    }
    expect(result.coverage[0]!.leftOut).toBe(0);
  });
});
