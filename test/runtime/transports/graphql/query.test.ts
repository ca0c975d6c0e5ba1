/**
 * The runtime's GraphQL query builder against graphql-js (the differential check of
 * docs/sources/graphql.md "Queries the runtime sends"): every query built for a compiled endpoint —
 * all its fields, or any subset of them, with any set of arguments — is parsed and validated by
 * graphql-js against the schema it was compiled from (the example library and GitHub's public schema).
 * Then the refusals of a contract that was not written by the compiler.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { buildASTSchema, type GraphQLSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlAdapter } from "../../../../compiler/sources/graphql/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import type { EndpointSpec, FieldSpec, GraphqlExecution } from "../../../../runtime/model/specs.js";
import { buildQuery } from "../../../../runtime/transports/graphql/query.js";
import { REPO_ROOT } from "../../../helpers/project.js";

const GITHUB_SDL = join(REPO_ROOT, "node_modules", "@octokit", "graphql-schema", "schema.graphql");
const LIBRARY_SDL = join(REPO_ROOT, "examples", "graphql", "library.graphql");

async function compiled(location: string): Promise<SourceResult> {
  return graphqlAdapter.resolve(
    "api",
    { kind: "graphql", location },
    { cwd: REPO_ROOT, env: {}, allowInsecureHttp: false },
  );
}

function execution(endpoint: EndpointSpec): GraphqlExecution {
  if (endpoint.execution.kind !== "graphql") throw new Error(`${endpoint.name} is not a GraphQL endpoint`);
  return endpoint.execution;
}

/** graphql-js's verdict on a built query: [] when it parses and validates. */
function verdict(
  schema: GraphQLSchema,
  endpoint: EndpointSpec,
  fields: readonly FieldSpec[],
  args: Record<string, unknown>,
): string[] {
  const identifiers = endpoint.fields.filter((field) => field.identifier === true);
  const { query } = buildQuery(execution(endpoint), fields, identifiers, args, endpoint.name);
  return validate(schema, parse(query)).map((error) => `${endpoint.name}: ${error.message} in ${query}`);
}

/** Arguments: the required ones and any subset of the optional ones (values do not reach the text). */
function argumentsOf(endpoint: EndpointSpec, optional: readonly boolean[] = []): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  endpoint.parameters.forEach((parameter, index) => {
    if (parameter.required || optional[index] === true) args[parameter.name] = null;
  });
  return args;
}

describe.each([
  ["the example library schema", LIBRARY_SDL],
  ["GitHub's public schema", GITHUB_SDL],
])("%s", (_name, location) => {
  // GitHub's published SDL defines two fields twice, identically: graphql-js keeps one of each.
  const schema = buildASTSchema(parse(readFileSync(location, "utf8")), { assumeValidSDL: true });
  let result: SourceResult | undefined;
  const endpoints = async () => {
    result ??= await compiled(location);
    return result.tools[0]!.endpoints;
  };

  it("validates the query of every endpoint with all its fields and all its arguments", async () => {
    const problems: string[] = [];
    for (const endpoint of await endpoints()) {
      const all = argumentsOf(
        endpoint,
        endpoint.parameters.map(() => true),
      );
      problems.push(...verdict(schema, endpoint, endpoint.fields, all));
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("validates the query of any subset of fields and optional arguments", async () => {
    const list = await endpoints();
    fc.assert(
      fc.property(
        fc.nat({ max: list.length - 1 }).chain((index) => {
          const endpoint = list[index]!;
          return fc.record({
            index: fc.constant(index),
            picked: fc.subarray(
              endpoint.fields.map((_field, position) => position),
              { minLength: 1 },
            ),
            optional: fc.array(fc.boolean(), {
              minLength: endpoint.parameters.length,
              maxLength: endpoint.parameters.length,
            }),
          });
        }),
        ({ index, picked, optional }) => {
          const endpoint = list[index]!;
          const fields = picked.map((position) => endpoint.fields[position]!);
          expect(verdict(schema, endpoint, fields, argumentsOf(endpoint, optional))).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 18 },
    );
  }, 120_000);
});

describe("a contract the compiler did not write", () => {
  const base: GraphqlExecution = {
    kind: "graphql",
    operation: "query",
    field: "book",
    variables: { id: "ID!" },
    selection: { abstract: [], unions: {} },
    partialResults: false,
  };
  const title: FieldSpec = { id: "title", path: ["book", "title"] };

  it.each([
    [
      "a root field that is not a name",
      { ...base, field: "book { __schema { types { name } } }" },
      [title],
      { id: 1 },
    ],
    ["a variable type with text after it", { ...base, variables: { id: "ID! ) { x }" } }, [title], { id: 1 }],
    ["a field path segment that is not a name", base, [{ id: "x", path: ["book", "title }"] }], { id: 1 }],
    [
      "a union member that is not a name",
      { ...base, selection: { abstract: [""], unions: { "": { title: ["Book } x"] } } } },
      [title],
      { id: 1 },
    ],
  ] as const)("refuses %s (TRANSPORT_REFUSED, graphql-name)", (_name, spec, fields, args) => {
    expect(() =>
      buildQuery(spec as GraphqlExecution, fields as unknown as FieldSpec[], [], args, "api.book"),
    ).toThrow(
      expect.objectContaining({
        code: "TRANSPORT_REFUSED",
        details: { route: "api.book", reason: "graphql-name" },
      }),
    );
  });

  it("refuses an argument the contract does not declare", () => {
    expect(() => buildQuery(base, [title], [], { id: 1, first: 2 }, "api.book")).toThrow(
      expect.objectContaining({
        code: "TRANSPORT_REFUSED",
        details: expect.objectContaining({ reason: "graphql-contract", argument: "first" }),
      }),
    );
  });

  it("refuses a field whose path leaves the root field", () => {
    expect(() =>
      buildQuery(base, [{ id: "x", path: ["viewer", "login"] }], [], { id: 1 }, "api.book"),
    ).toThrow(
      expect.objectContaining({
        code: "TRANSPORT_REFUSED",
        details: expect.objectContaining({ reason: "graphql-contract" }),
      }),
    );
  });

  it("refuses a selection deeper or larger than the runtime's bounds", () => {
    const deep: FieldSpec = { id: "deep", path: ["book", ...Array.from({ length: 13 }, (_v, i) => `f${i}`)] };
    expect(() => buildQuery(base, [deep], [], { id: 1 }, "api.book")).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ reason: "graphql-selection" }) }),
    );
    const wide = Array.from(
      { length: 2001 },
      (_v, i): FieldSpec => ({ id: `f${i}`, path: ["book", `f${i}`] }),
    );
    expect(() => buildQuery(base, wide, [], { id: 1 }, "api.book")).toThrow(/more than 2000 fields/);
  });
});
