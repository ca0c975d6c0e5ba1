/**
 * The OpenRPC adapter on documents written to exercise one rule each, and `rpc.discover` against the
 * real `@open-rpc/server-js`: meta-schema refusals, the locked endpoint, params by position and by
 * name, local references (external, dangling and cyclic ones leave the method out), reserved method
 * names, extensions reported, draft-07 tuples as 2020-12, and local effects.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSource } from "../../../../compiler/compile/compile.js";
import type { OpenRpcSourceConfig } from "../../../../compiler/config/config.js";
import type { SourceContext, SourceResult } from "../../../../compiler/sources/types.js";
import { isSchemaRouterError } from "../../../../runtime/errors/errors.js";
import type { EndpointSpec } from "../../../../runtime/model/specs.js";
import {
  type OpenRpcPetstore,
  PETSTORE_DOCUMENT_PATH,
  startOpenRpcPetstore,
} from "../../../fixtures/openrpc/petstore-server.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

const project = tempProject("openrpc-source");
const context: SourceContext = { cwd: project.dir, env: {}, allowInsecureHttp: false };
const URL_ = "https://rpc.example.org/";

type Doc = Record<string, unknown>;
const base = (methods: unknown[], extra: Doc = {}): Doc => ({
  openrpc: "1.2.6",
  info: { title: "Fixture", version: "1.0.0" },
  methods,
  ...extra,
});

let counter = 0;
async function compileDoc(doc: Doc, over: Partial<OpenRpcSourceConfig> = {}): Promise<SourceResult> {
  const file = `doc-${counter++}.json`;
  writeInto(project, file, JSON.stringify(doc));
  return resolveSource("fixture", { kind: "openrpc", location: file, url: URL_, ...over }, context);
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSchemaRouterError(error)) throw new Error(`expected a SchemaRouterError, got ${String(error)}`);
  return error;
}

const endpoint = (result: SourceResult, name: string): EndpointSpec =>
  result.tools[0]!.endpoints.find((candidate) => candidate.name === name)!;

const math = (extra: Doc = {}) => ({
  name: "add",
  params: [
    { name: "a", required: true, schema: { type: "integer" } },
    { name: "b", schema: { type: "integer" } },
    { name: "c", schema: { type: "integer" } },
  ],
  result: { name: "sum", schema: { type: "integer" } },
  ...extra,
});

describe("documents", () => {
  it("refuses a document the OpenRPC meta-schema rejects, naming where", async () => {
    const error = await refusal(
      compileDoc(base([{ name: "a", params: {}, result: { name: "r", schema: {} } }])),
    );
    expect(error.code).toBe("SOURCE_INVALID");
    expect(error.message).toContain(
      "is not a valid OpenRPC document (OpenRPC meta-schema): /methods/0/params must be array",
    );
    expect(error.details).toMatchObject({ pointer: "/methods/0/params" });
  });

  it("refuses a document source without the JSON-RPC endpoint to call (the document's servers are not trusted)", async () => {
    writeInto(project, "no-url.json", JSON.stringify(base([math()])));
    const error = await refusal(
      resolveSource("fixture", { kind: "openrpc", location: "no-url.json" }, context),
    );
    expect(error.code).toBe("SOURCE_INVALID");
    expect(error.message).toBe(
      'source "fixture": set "url" to the JSON-RPC endpoint calls go to (the document\'s servers are not trusted to choose it).',
    );
  });

  it("refuses plain http to a host that is not loopback", async () => {
    const error = await refusal(compileDoc(base([math()]), { url: "http://rpc.example.org/" }));
    expect(error.code).toBe("URL_NOT_ALLOWED");
  });

  it("sends params by position by default, and requires every optional param before a given one", async () => {
    const add = endpoint(await compileDoc(base([math()])), "add");
    expect(add.execution).toEqual({ kind: "openrpc", rpcMethod: "add", paramStructure: "by-position" });
    expect(add.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } },
      required: ["a"],
      dependentRequired: { c: ["b"] },
      additionalProperties: false,
    });
    expect(add.effect).toBe("unclassified");
  });

  it("sends by name when the method says so or eitherParams is by-name", async () => {
    const named = endpoint(await compileDoc(base([math({ paramStructure: "by-name" })])), "add");
    expect(named.execution).toMatchObject({ paramStructure: "by-name" });
    expect(named.inputSchema).not.toHaveProperty("dependentRequired");
    const either = endpoint(await compileDoc(base([math()]), { eitherParams: "by-name" }), "add");
    expect(either.execution).toMatchObject({ paramStructure: "by-name" });
    const positional = endpoint(
      await compileDoc(base([math({ paramStructure: "by-position" })]), { eitherParams: "by-name" }),
      "add",
    );
    expect(positional.execution).toMatchObject({ paramStructure: "by-position" });
  });

  it("classifies methods only from local effects, and refuses effects for a method it does not compile", async () => {
    const classified = await compileDoc(base([math()]), { effects: { add: "read" } });
    expect(endpoint(classified, "add").effect).toBe("read");
    const error = await refusal(compileDoc(base([math()]), { effects: { remove: "write" } }));
    expect(error.code).toBe("SOURCE_INVALID");
    expect(error.message).toContain("effects.remove names a method the document does not compile");
  });

  it("leaves out a method with an external, dangling or cyclic reference, and one with a reserved rpc. name", async () => {
    const result = await compileDoc(
      base([
        {
          name: "external",
          params: [{ $ref: "https://example.org/params.json#/a" }],
          result: { name: "r", schema: {} },
        },
        { name: "dangling", params: [], result: { $ref: "#/components/contentDescriptors/missing" } },
        {
          name: "cyclic",
          // A reference to itself (components cannot hold references: the meta-schema refuses them).
          params: [{ $ref: "#/methods/2/params/0" }],
          result: { name: "r", schema: {} },
        },
        { name: "schema_ref", params: [], result: { name: "r", schema: { $ref: "other.json#/x" } } },
        { name: "rpc.private", params: [], result: { name: "r", schema: {} } },
        math(),
      ]),
    );
    expect(result.tools[0]!.endpoints.map((candidate) => candidate.name)).toEqual(["add"]);
    expect(
      result.compatibility
        .filter((issue) => issue.leftOut !== undefined)
        .map((issue) => [issue.leftOut, issue.construct, issue.level]),
    ).toEqual([
      ["/methods/0", "external-ref", "unsupported"],
      ["/methods/1", "unresolved-ref", "unsupported"],
      ["/methods/2", "ref-cycle", "unsupported"],
      ["/methods/3", "external-ref", "unsupported"],
      ["/methods/4", "reserved-method-name", "unsupported"],
    ]);
  });

  it("reports specification extensions as ignored, keeping x-unit as a field unit", async () => {
    const result = await compileDoc(
      base(
        [
          {
            name: "weigh",
            "x-rate-limit": 5,
            params: [],
            result: {
              name: "r",
              schema: { type: "object", properties: { kg: { type: "number", "x-unit": "kg" } } },
            },
          },
        ],
        { "x-vendor": { anything: true } },
      ),
    );
    expect(
      result.compatibility
        .filter((issue) => issue.construct === "specification-extension")
        .map((issue) => [issue.pointer, issue.message]),
    ).toEqual([
      ["/methods/0/x-rate-limit", "the extension x-rate-limit is ignored."],
      ["/x-vendor", "the extension x-vendor is ignored."],
    ]);
    expect(endpoint(result, "weigh").fields).toEqual([
      {
        id: "kg",
        path: ["result", "kg"],
        schema: { type: "number", "x-unit": "kg" },
        datatype: "number",
        unit: "kg",
      },
    ]);
  });

  it("rewrites draft-07 tuples (array items, additionalItems) as 2020-12 prefixItems/items", async () => {
    const result = await compileDoc(
      base([
        {
          name: "pair",
          params: [
            {
              name: "p",
              required: true,
              schema: {
                type: "array",
                items: [{ type: "string" }, { type: "integer" }],
                additionalItems: false,
              },
            },
          ],
          result: { name: "r", schema: { type: "boolean" } },
        },
      ]),
    );
    expect(endpoint(result, "pair").parameters[0]!.schema).toEqual({
      type: "array",
      prefixItems: [{ type: "string" }, { type: "integer" }],
      items: false,
    });
  });

  it("compiles a notification (no result, OpenRPC 1.3) as a call that accepts any result, reported partial", async () => {
    const result = await compileDoc({ ...base([{ name: "ping", params: [] }]), openrpc: "1.3.2" });
    expect(endpoint(result, "ping").outputSchema).toEqual({
      type: "object",
      required: ["result"],
      properties: { result: {} },
    });
    expect(result.compatibility.map((issue) => issue.construct)).toEqual(["notification"]);
  });
});

describe("rpc.discover against @open-rpc/server-js", () => {
  let server: OpenRpcPetstore;
  beforeAll(async () => {
    server = await startOpenRpcPetstore();
  });
  afterAll(() => server.close());

  it("compiles what the live server describes, calls locked to the discover endpoint", async () => {
    const discovered = await resolveSource(
      "petstore",
      { kind: "openrpc", discover: server.url },
      { ...context, allowInsecureHttp: false },
    );
    expect(server.requests.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, method: "rpc.discover", params: [] });
    writeInto(project, "petstore.json", readFileSync(PETSTORE_DOCUMENT_PATH, "utf8"));
    const fromFile = await resolveSource(
      "petstore",
      { kind: "openrpc", location: "petstore.json", url: server.url },
      context,
    );
    // server-js serves the document dereferenced: the same methods, params and fields, schemas inlined.
    const shape = (result: SourceResult) =>
      result.tools[0]!.endpoints.map((candidate) => [
        candidate.name,
        candidate.execution,
        candidate.parameters.map((parameter) => [parameter.name, parameter.required]),
        candidate.fields.map((field) => field.id),
      ]);
    expect(shape(discovered)).toEqual(shape(fromFile));
    expect(Object.keys(discovered.defs)).toEqual([]);
    expect(discovered.tools[0]!.execution).toEqual({ transport: "openrpc", rpcUrl: server.url });
    expect(discovered.location).toBe(server.url);
  });
});
