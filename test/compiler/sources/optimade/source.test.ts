/**
 * The OPTIMADE source adapter against real providers on 127.0.0.1: the fixture in both property
 * definition formats (fields, units, paths, provider-specific marks, server projection, all
 * fingerprinted), /versions discovery, bounded same-origin fetches, and a provider with constructs
 * the compiler does not understand, which land in the compatibility report.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, resolveSource } from "../../../../compiler/compile/compile.js";
import type { OptimadeSourceConfig } from "../../../../compiler/config/config.js";
import type { SourceContext, SourceResult } from "../../../../compiler/sources/types.js";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
import { isSchemaRouterError } from "../../../../runtime/errors/errors.js";
import {
  canonicalJson,
  DefinitionSet,
  digestJson,
  endpointFingerprint,
} from "../../../../runtime/format/fingerprint.js";
import { effectiveSchema } from "../../../../runtime/load/registry.js";
import type { EndpointSpec, FieldSpec, ToolSpec } from "../../../../runtime/model/specs.js";
import { type OptimadeServer, startOptimadeServer } from "../../../fixtures/optimade/server.js";
import { tempProject } from "../../../helpers/project.js";

type Json = Record<string, unknown>;

const context: SourceContext = { cwd: process.cwd(), env: {}, allowInsecureHttp: false };
const resolveAt = (location: string): Promise<SourceResult> =>
  resolveSource("fixture", { kind: "optimade", location } satisfies OptimadeSourceConfig, context);

let server: OptimadeServer;
let v12: SourceResult;
let v11: SourceResult;

beforeAll(async () => {
  server = await startOptimadeServer();
  v12 = await resolveAt(server.baseUrl);
  server.setPropertyFormat("v1.1");
  v11 = await resolveAt(server.versionedBaseUrl);
  server.setPropertyFormat("v1.2");
}, 60_000);
afterAll(() => server.close());

const toolOf = (result: SourceResult): ToolSpec => result.tools[0]!;
const endpointOf = (result: SourceResult, name: string): EndpointSpec =>
  toolOf(result).endpoints.find((endpoint) => endpoint.name === name)!;
const fieldOf = (endpoint: EndpointSpec, id: string): FieldSpec =>
  endpoint.fields.find((field) => field.id === id)!;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSchemaRouterError(error)) throw new Error(`expected a SchemaRouterError, got ${String(error)}`);
  return error;
}

describe("the fixture provider", () => {
  it("is one tool with a listing and a single-entry endpoint per entry type", () => {
    for (const result of [v12, v11]) {
      const tool = toolOf(result);
      expect(tool).toMatchObject({
        name: "fixture",
        namespace: "fixture",
        provider: "SchemaRouter fixture provider",
        accessMode: "optimade",
        remote: true,
        execution: { transport: "optimade", baseUrl: server.versionedBaseUrl },
      });
      expect(tool.endpoints.map((endpoint) => [endpoint.name, endpoint.effect, endpoint.execution])).toEqual([
        [
          "list_references",
          "read",
          { kind: "optimade", entryType: "references", mode: "list", paginations: ["offset", "number"] },
        ],
        [
          "get_references",
          "read",
          { kind: "optimade", entryType: "references", mode: "single", paginations: [] },
        ],
        [
          "list_structures",
          "read",
          { kind: "optimade", entryType: "structures", mode: "list", paginations: ["offset", "number"] },
        ],
        [
          "get_structures",
          "read",
          { kind: "optimade", entryType: "structures", mode: "single", paginations: [] },
        ],
      ]);
      expect(endpointOf(result, "list_structures").parameters.map((parameter) => parameter.name)).toEqual([
        "filter",
        "sort",
        "page_limit",
        "page_offset",
        "page_number",
        "response_fields",
      ]);
      expect(
        endpointOf(result, "get_structures").parameters.map((parameter) => [
          parameter.name,
          parameter.location,
          parameter.required,
        ]),
      ).toEqual([
        ["id", "path", true],
        ["response_fields", "query", false],
      ]);
      expect(result.compatibility).toEqual([]);
    }
  });

  it.each([
    // id, path under the record, unit, dimensions (v1.2 only), datatype, provider-specific
    ["id", ["id"], undefined, undefined, "string", undefined],
    [
      "lattice_vectors",
      ["attributes", "lattice_vectors"],
      "Å",
      "dim_lattice[3],dim_spatial[3]",
      "array",
      undefined,
    ],
    [
      "cartesian_site_positions",
      ["attributes", "cartesian_site_positions"],
      "Å",
      "dim_sites,dim_spatial[3]",
      "array",
      undefined,
    ],
    [
      "chemical_formula_reduced",
      ["attributes", "chemical_formula_reduced"],
      undefined,
      undefined,
      "string",
      undefined,
    ],
    ["nelements", ["attributes", "nelements"], undefined, undefined, "integer", undefined],
    ["_fixture_band_gap", ["attributes", "_fixture_band_gap"], "eV", undefined, "number", true],
    ["species[].mass", ["attributes", "species", "*", "mass"], "u", undefined, "array", undefined],
  ])(
    "declares %s with its path, unit and marks (list and single)",
    (id, path, unit, dimensions, datatype, providerSpecific) => {
      for (const [name, prefix] of [
        ["list_structures", ["data", "*"]],
        ["get_structures", ["data"]],
      ] as const) {
        const field = fieldOf(endpointOf(v12, name), id);
        const full = [...prefix, ...path];
        expect(field.path).toEqual(full);
        expect(field.resultPath).toEqual(full.includes("*") ? full : undefined);
        expect([field.unit, field.dimensions, field.datatype, field.providerSpecific]).toEqual([
          unit,
          dimensions,
          datatype,
          providerSpecific,
        ]);
      }
      expect(fieldOf(endpointOf(v12, "list_structures"), "id").identifier).toBe(true);
    },
  );

  it("gives the same fields, units and projection in both property formats", () => {
    for (const name of ["list_structures", "get_structures", "list_references", "get_references"]) {
      const summary = (result: SourceResult) =>
        endpointOf(result, name)
          .fields.filter((field) => !field.id.includes("[]") && !field.id.includes("."))
          .map((field) => [
            field.id,
            field.path,
            field.unit,
            field.datatype,
            field.providerSpecific,
            field.license,
          ]);
      expect(summary(v11)).toEqual(summary(v12));
      expect(summary(v12).length).toBeGreaterThan(10);
      const projection = endpointOf(v11, name).serverProjection!;
      expect(projection).toMatchObject({
        parameter: "response_fields",
        always: ["id", "type"],
        separator: ",",
      });
      for (const [field, selector] of Object.entries(projection.selectors))
        expect(endpointOf(v12, name).serverProjection?.selectors[field]).toBe(selector);
    }
    expect(fieldOf(endpointOf(v11, "list_structures"), "lattice_vectors").unit).toBe("Å");
    expect(fieldOf(endpointOf(v12, "list_structures"), "lattice_vectors").semanticId).toBe(
      "https://schemas.optimade.org/defs/v1.2/properties/optimade/structures/lattice_vectors",
    );
  });

  it("maps every field to its response_fields selector (nested keys to their property)", () => {
    const endpoint = endpointOf(v12, "list_structures");
    const { selectors } = endpoint.serverProjection!;
    expect(selectors.lattice_vectors).toBe("lattice_vectors");
    expect(selectors["species[].mass"]).toBe("species");
    const attributeFields = endpoint.fields.filter((field) => !field.id.startsWith("meta."));
    expect(Object.keys(selectors).sort()).toEqual(attributeFields.map((field) => field.id).sort());
    expect(endpoint.parameters.find((parameter) => parameter.name === "sort")?.schema).toMatchObject({
      pattern: expect.stringContaining("chemical_formula_reduced"),
    });
  });

  it.each([
    ["a unit", (field: FieldSpec) => ({ ...field, unit: "nm" })],
    ["a path", (field: FieldSpec) => ({ ...field, path: ["data", "*", "attributes", "lattice"] })],
    ["the provider-specific mark", (field: FieldSpec) => ({ ...field, providerSpecific: true })],
    ["the dimensions", (field: FieldSpec) => ({ ...field, dimensions: "dim_lattice" })],
  ])("fingerprints %s of a field", (_name, change) => {
    const defs = new DefinitionSet(v12.defs);
    const endpoint = endpointOf(v12, "list_structures");
    const changed = {
      ...endpoint,
      fields: endpoint.fields.map((field) => (field.id === "lattice_vectors" ? change(field) : field)),
    };
    expect(endpointFingerprint(changed, defs)).not.toBe(endpointFingerprint(endpoint, defs));
  });

  it("fingerprints the server projection and the attribute schemas, not metadata", () => {
    const defs = new DefinitionSet(v12.defs);
    const endpoint = endpointOf(v12, "list_structures");
    const base = endpointFingerprint(endpoint, defs);
    const projection = endpoint.serverProjection!;
    const moved = {
      ...endpoint,
      serverProjection: {
        ...projection,
        selectors: { ...projection.selectors, lattice_vectors: "cartesian_site_positions" },
      },
    };
    expect(endpointFingerprint(moved, defs)).not.toBe(base);
    const entry = v12.defs.structures_entry as Json;
    const loosened = new DefinitionSet({ ...v12.defs, structures_entry: { ...entry, required: ["id"] } });
    expect(endpointFingerprint(endpoint, loosened)).not.toBe(base);
    expect(endpointFingerprint({ ...endpoint, metadata: { note: "descriptive" } }, defs)).toBe(base);
  });

  it("has output schemas the provider's real answers satisfy", async () => {
    const validators = new ValidatorSet();
    const defs = new DefinitionSet(v12.defs);
    const cases: [string, string][] = [
      ["list_structures", "/structures?page_limit=5"],
      ["list_structures", "/structures?response_fields=lattice_vectors&filter=nelements=1"],
      ["get_structures", "/structures/gaas-zincblende"],
      ["list_references", "/references"],
      ["get_references", "/references/levien1980"],
    ];
    for (const [name, path] of cases) {
      const body = (await (await fetch(`${server.versionedBaseUrl}${path}`)).json()) as Json;
      const schema = effectiveSchema(endpointOf(v12, name).outputSchema, defs);
      expect([path, validators.validate(schema, body)]).toEqual([path, []]);
      const broken = {
        ...body,
        data: name.startsWith("list") ? [{ id: 1, type: "structures" }] : { id: "x", type: "links" },
      };
      expect(validators.validate(schema, broken).length).toBeGreaterThan(0);
    }
  });

  it("digests the info documents without their per-request meta, deterministically", async () => {
    const digests: Record<string, string> = {};
    for (const path of ["/info", "/info/references", "/info/structures"]) {
      const body = (await (await fetch(`${server.versionedBaseUrl}${path}`)).json()) as {
        meta: Record<string, unknown>;
      };
      const { time_stamp: _time, query: _query, response_message: _message, ...meta } = body.meta;
      digests[path] = digestJson({ ...body, meta });
    }
    expect(v12.documentDigest).toBe(digestJson(digests));
    expect(v11.documentDigest).not.toBe(v12.documentDigest);
    const again = await resolveAt(server.baseUrl);
    expect(canonicalJson(again)).toBe(canonicalJson(v12));
    // A provider regenerates meta.time_stamp on every request: the digest above excludes it.
    const raw = (await (await fetch(`${server.versionedBaseUrl}/info`)).json()) as {
      meta: { time_stamp?: string };
    };
    expect(raw.meta.time_stamp).toBeDefined();
  });

  it("compiles into the lockfile and an artifact that a second compile leaves unchanged", async () => {
    const project = tempProject("optimade-source");
    project.write({ sources: { fixture: { kind: "optimade", location: server.baseUrl } } });
    const first = await compile({ config: project.configPath, env: {} });
    const locked = first.lock.sources.fixture!;
    expect(locked).toMatchObject({ kind: "optimade", location: `${server.baseUrl}/` });
    expect(Object.entries(locked.tools.fixture!.endpoints).map(([name, pin]) => [name, pin.effect])).toEqual([
      ["list_references", "read"],
      ["get_references", "read"],
      ["list_structures", "read"],
      ["get_structures", "read"],
    ]);
    const second = await compile({ config: project.configPath, env: {}, mode: "check" });
    expect(second.write.stale).toEqual([]);
  });
});

describe("base URL discovery", () => {
  it("finds the versioned base URL through /versions, under a base path too", async () => {
    const nested = await startOptimadeServer({ basePath: "/optimade" });
    try {
      const result = await resolveAt(`${nested.baseUrl}/`);
      expect(toolOf(result).execution).toEqual({
        transport: "optimade",
        baseUrl: `${nested.url}/optimade/v1`,
      });
      expect(nested.requests.slice(0, 2).map((request) => request.path)).toEqual([
        "/optimade/versions",
        "/optimade/v1/info",
      ]);
      nested.clearRequests();
      await resolveAt(`${nested.baseUrl}/v1`);
      expect(nested.requests.map((request) => request.path)).not.toContain("/optimade/versions");
    } finally {
      await nested.close();
    }
  });

  it.each([
    ["a query string", "http://127.0.0.1:9/v1?key=secret", "URL_NOT_ALLOWED"],
    ["credentials", "http://user:pw@127.0.0.1:9/v1", "URL_NOT_ALLOWED"],
    ["plain http to another host", "http://optimade.example.org/v1", "URL_NOT_ALLOWED"],
    ["another major version", "http://127.0.0.1:9/v2", "SOURCE_INVALID"],
    ["a provider that is down", "http://127.0.0.1:9/v1", "SOURCE_FETCH_FAILED"],
  ])("refuses %s", async (_name, location, code) => {
    const error = await refusal(resolveAt(location));
    expect(error.code).toBe(code);
    expect(error.message).not.toContain("secret");
  });
});

describe("a provider with constructs the compiler does not understand", () => {
  let odd: OddProvider;
  beforeAll(async () => {
    odd = await startOddProvider();
  });
  afterAll(() => odd.close());

  it("compiles what it can and reports the rest", async () => {
    const result = await resolveAt(odd.url);
    expect(result.compatibility.map((issue) => [issue.pointer, issue.construct, issue.level])).toEqual([
      ["/info/_exmpl_workflows/data/formats", "response-format", "unsupported"],
      ["/info/data/attributes/entry_types_by_format/json", "entry-type-name", "unsupported"],
      ["/info/structures/data/formats", "response-format", "partial"],
      ["/info/structures/data/properties", "sortability-undeclared", "partial"],
      ["/info/structures/data/properties/Bad Name", "property-name", "unsupported"],
      ["/info/structures/data/properties/_exmpl_set/x-optimade-type", "namespace-type", "partial"],
      [
        "/info/structures/data/properties/frames/x-optimade-dimensions/compactable",
        "compact-list",
        "partial",
      ],
      ["/info/structures/data/properties/legacy/type", "untyped-property", "partial"],
      [
        "/info/structures/data/properties/old_format/x-optimade-definition/format",
        "property-definition-format",
        "unsupported",
      ],
      ["/info/structures/data/properties/v10_style/type", "untyped-property", "partial"],
      ["/info/structures/data/properties/weird", "output-field", "partial"],
      ["/info/structures/data/properties/weird/oneOf", "unknown-keyword", "partial"],
    ]);
    const list = endpointOf(result, "list_structures");
    expect(list.execution).toMatchObject({ paginations: ["cursor"] });
    expect(list.parameters.map((parameter) => parameter.name)).toEqual([
      "filter",
      "sort",
      "page_limit",
      "page_cursor",
      "response_fields",
    ]);
    expect(fieldOf(list, "weird").unit).toBe("eV*Å^-1");
    expect(fieldOf(list, "_exmpl_set").providerSpecific).toBe(true);
    expect(fieldOf(list, "v10_style").unit).toBe("eV");
    expect(fieldOf(list, "legacy").schema).toEqual({ description: "An old property of unknown type." });
    expect(toolOf(result).endpoints.map((endpoint) => endpoint.name)).toEqual([
      "list_structures",
      "get_structures",
    ]);
  });

  it.each([
    ["serves no v1", { versions: "version\n2\n" }, "SOURCE_INVALID"],
    ["reports another api_version", { apiVersion: "2.0.0" }, "SOURCE_INVALID"],
    ["lists no entry types", { entryTypes: null }, "SOURCE_INVALID"],
    ["answers /info with HTML", { infoBody: "<html>" }, "SOURCE_PARSE_FAILED"],
  ])("refuses a provider that %s", async (_name, options, code) => {
    const provider = await startOddProvider(options);
    try {
      expect((await refusal(resolveAt(provider.url))).code).toBe(code);
    } finally {
      await provider.close();
    }
  });
});

interface OddOptions {
  readonly versions?: string;
  readonly apiVersion?: string;
  readonly entryTypes?: readonly string[] | null;
  readonly infoBody?: string;
}

interface OddProvider {
  readonly url: string;
  close(): Promise<void>;
}

/** A small OPTIMADE provider on node:http with unusual but spec-shaped documents. */
async function startOddProvider(options: OddOptions = {}): Promise<OddProvider> {
  const meta = {
    api_version: options.apiVersion ?? "1.2.0",
    more_data_available: false,
    provider: { name: "Odd", description: "An odd provider.", prefix: "exmpl" },
  };
  const info = {
    data: {
      type: "info",
      id: "/",
      attributes: {
        api_version: options.apiVersion ?? "1.2.0",
        formats: ["json"],
        ...(options.entryTypes === null
          ? {}
          : {
              entry_types_by_format: {
                json: options.entryTypes ?? ["structures", "_exmpl_workflows", "Bad-Type"],
              },
            }),
        available_endpoints: ["info", "structures"],
      },
    },
    meta,
  };
  const property = (extra: Json): Json => ({
    "x-optimade-unit": "inapplicable",
    "x-optimade-implementation": { sortable: false },
    ...extra,
  });
  const structures = {
    data: {
      type: "info",
      id: "structures",
      description: "Odd structures.",
      formats: ["json", "xml"],
      output_fields_by_format: {
        json: ["id", "type", "_exmpl_set", "frames", "legacy", "old_format", "Bad Name", "v10_style"],
      },
      properties: {
        id: property({ "x-optimade-type": "string", type: ["string"] }),
        type: property({ "x-optimade-type": "string", type: ["string"] }),
        _exmpl_set: property({ "x-optimade-type": "_exmpl_set", type: ["object", "null"] }),
        weird: property({
          "x-optimade-type": "float",
          type: ["number", "null"],
          "x-optimade-unit": "eV*angstrom^-1",
          oneOf: [{ minimum: 0 }],
        }),
        frames: {
          "x-optimade-type": "list",
          type: ["array", "null"],
          "x-optimade-unit": "inapplicable",
          "x-optimade-dimensions": { names: ["dim_frames"], sizes: [null], compactable: ["constant"] },
          items: { "x-optimade-type": "integer", type: ["integer"], "x-optimade-unit": "dimensionless" },
        },
        legacy: { type: "unknown", description: "An old property of unknown type.", sortable: false },
        v10_style: {
          description: "A band gap in the v1.0 form, without a type.",
          unit: "electronvolt",
          sortable: false,
        },
        old_format: property({
          "x-optimade-type": "string",
          type: ["string"],
          "x-optimade-definition": { format: "2.0", kind: "property", name: "old_format", label: "old" },
        }),
        "Bad Name": property({ "x-optimade-type": "string", type: ["string"] }),
      },
    },
    meta,
  };
  const workflows = {
    data: { type: "info", id: "_exmpl_workflows", formats: ["xml"], properties: {} },
    meta,
  };
  let own = "";
  const send = (
    response: import("node:http").ServerResponse,
    status: number,
    body: unknown,
    type = "application/vnd.api+json",
  ) =>
    response
      .writeHead(status, { "content-type": type })
      .end(typeof body === "string" ? body : JSON.stringify(body));
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", own);
    if (url.pathname === "/versions")
      return send(response, 200, options.versions ?? "version\n1\n", "text/csv; header=present");
    if (url.pathname === "/v1/info") return send(response, 200, options.infoBody ?? info);
    if (url.pathname === "/v1/info/structures") return send(response, 200, structures);
    if (url.pathname === "/v1/info/_exmpl_workflows") return send(response, 200, workflows);
    if (url.pathname === "/v1/structures") {
      if (url.searchParams.has("page_offset") || url.searchParams.has("page_number"))
        return send(response, 400, { errors: [{ status: "400", detail: "Use page_cursor." }], meta });
      return send(response, 200, {
        data: [{ id: "a", type: "structures", attributes: {} }],
        links: { next: `${own}/v1/structures?page_cursor=abc&page_limit=1` },
        meta,
      });
    }
    return send(response, 404, { errors: [{ status: "404", detail: "Not here." }], meta });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  own = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: own,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error === undefined ? resolve() : reject(error)));
        http.closeAllConnections();
      }),
  };
}
