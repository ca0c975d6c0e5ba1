/**
 * The OPTIMADE fixture provider behaves per spec over real HTTP: info endpoints in both property
 * formats, filters, sort, pagination links, response_fields, include, errors with their statuses,
 * version negotiation, fault injection, the request log, and physically sound seed data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OptimadeServer, startOptimadeServer } from "../../../fixtures/optimade/server.js";

type Json = Record<string, unknown>;
type Reply = { status: number; headers: Headers; body: Json };

/** The value at `path` inside parsed JSON (`undefined` when absent). */
function dig(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>(
    (current, key) =>
      typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined,
    value,
  );
}
const records = (value: unknown): Json[] => value as Json[];

let server: OptimadeServer;

beforeAll(async () => {
  server = await startOptimadeServer();
});

afterAll(async () => {
  await server.close();
});

async function get(url: string, init?: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? (JSON.parse(text) as Json) : { text };
  return { status: response.status, headers: response.headers, body };
}

const v1 = (path: string) => get(`${server.versionedBaseUrl}${path}`);
const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const ids = (body: Json): string[] => records(body.data).map((entry) => entry.id as string);

function expectError(result: Reply, status: number, title: string): Json {
  expect(result.status).toBe(status);
  expect(result.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(result.body.data).toBeUndefined();
  expect(dig(result.body, "meta", "api_version")).toMatch(/^1\.\d+\.0$/);
  const [error] = records(result.body.errors);
  expect(error).toMatchObject({ status: String(status), title });
  expect(typeof error?.detail).toBe("string");
  return error!;
}

describe("versions and info", () => {
  it("serves /versions as CSV on the unversioned base URL only", async () => {
    const response = await fetch(`${server.baseUrl}/versions`);
    expect(response.headers.get("content-type")).toBe("text/csv; header=present");
    expect(await response.text()).toBe("version\n1\n");
    expectError(await v1("/versions"), 404, "Not Found");
  });

  it("serves the base info endpoint", async () => {
    const { status, headers, body } = await v1("/info");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/vnd.api+json");
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(Object.keys(body)[0]).toBe("jsonapi");
    expect(body.jsonapi).toEqual({ version: "1.1", meta: { api: "OPTIMADE", "api-version": "1.2.0" } });
    expect(body.data).toMatchObject({ type: "info", id: "/" });
    expect(dig(body, "data", "attributes")).toMatchObject({
      api_version: "1.2.0",
      available_api_versions: [{ url: `${server.baseUrl}/v1/`, version: "1.2.0" }],
      formats: ["json"],
      entry_types_by_format: { json: ["structures", "references"] },
      available_endpoints: ["info", "links", "structures", "references"],
      is_index: false,
    });
    expect(body.meta).toMatchObject({
      api_version: "1.2.0",
      query: { representation: "/info" },
      more_data_available: false,
      provider: { prefix: "fixture" },
    });
  });

  it("describes structures properties in the v1.2 format", async () => {
    const { body } = await v1("/info/structures");
    expect(body.data).toMatchObject({ type: "info", id: "structures", formats: ["json"] });
    const properties = dig(body, "data", "properties") as Json;
    expect(dig(body, "data", "output_fields_by_format", "json")).toEqual(Object.keys(properties));
    expect(properties.nelements).toMatchObject({
      "x-optimade-type": "integer",
      type: ["integer", "null"],
      "x-optimade-unit": "dimensionless",
      "x-optimade-implementation": { sortable: true },
    });
    expect(properties.lattice_vectors).toMatchObject({
      $id: "https://schemas.optimade.org/defs/v1.2/properties/optimade/structures/lattice_vectors",
      "x-optimade-type": "list",
      type: ["array", "null"],
      "x-optimade-dimensions": { names: ["dim_lattice", "dim_spatial"], sizes: [3, 3] },
      "x-optimade-unit-definitions": [{ symbol: "angstrom" }],
      items: {
        "x-optimade-type": "list",
        items: { "x-optimade-type": "float", "x-optimade-unit": "angstrom" },
      },
      "x-optimade-implementation": { sortable: false },
    });
    expect(dig(properties, "elements", "items")).toMatchObject({
      "x-optimade-type": "string",
      type: ["string"],
    });
    // Served as in the schema sources (whose enum, copied from chemical_symbol, lacks "vacancy").
    expect(dig(properties, "species", "items", "properties", "chemical_symbols", "items")).toMatchObject({
      $id: "https://schemas.optimade.org/defs/v1.2/properties/optimade/common/chemical_symbol_or_vacancy",
      enum: expect.arrayContaining(["X", "Si", "O"]),
    });
    expect(properties.last_modified).toMatchObject({
      "x-optimade-type": "timestamp",
      type: ["string", "null"],
    });
    expect(properties.structure_features).toMatchObject({
      "x-optimade-type": "list",
      type: ["array", "null"],
    });
    expect(properties._fixture_band_gap).toMatchObject({
      "x-optimade-type": "float",
      "x-optimade-unit": "eV",
      "x-optimade-unit-definitions": [{ symbol: "eV" }],
    });
    expect(JSON.stringify(properties)).not.toContain("$$");
  });

  it("switches to the v1.1 property format", async () => {
    server.setPropertyFormat("v1.1");
    try {
      const { body } = await v1("/info/structures");
      const properties = dig(body, "data", "properties") as Json;
      expect(properties.lattice_vectors).toEqual({
        description: expect.stringContaining("lattice vectors"),
        type: "list",
        unit: "Å",
        sortable: false,
      });
      expect(properties.nelements).toEqual({
        description: expect.any(String),
        type: "integer",
        sortable: true,
      });
      expect(properties._fixture_band_gap).toMatchObject({ type: "float", unit: "eV", sortable: true });
      expect(properties.species).not.toHaveProperty("unit");
      expect(JSON.stringify(properties)).not.toContain("x-optimade");
      expect(dig(body, "meta", "api_version")).toBe("1.1.0");
      expect(dig((await v1("/info")).body, "data", "attributes", "api_version")).toBe("1.1.0");
    } finally {
      server.setPropertyFormat("v1.2");
    }
    expect(dig((await v1("/info/structures")).body, "data", "properties", "nelements", "type")).toEqual([
      "integer",
      "null",
    ]);
  });

  it("starts in the v1.1 format when asked", async () => {
    const old = await startOptimadeServer({ propertyFormat: "v1.1" });
    try {
      const { body } = await get(`${old.versionedBaseUrl}/info/references`);
      expect(dig(body, "data", "properties", "authors")).toMatchObject({ type: "list", sortable: false });
      expect(dig(body, "meta", "api_version")).toBe("1.1.0");
    } finally {
      await old.close();
    }
  });

  it("describes references and serves the links endpoint", async () => {
    const { body } = await v1("/info/references");
    expect(dig(body, "data", "properties", "authors", "items", "properties", "lastname")).toMatchObject({
      "x-optimade-type": "string",
    });
    const links = await v1("/links");
    expect(links.body.data).toEqual([
      expect.objectContaining({
        type: "links",
        attributes: expect.objectContaining({ link_type: "root", base_url: server.baseUrl }),
      }),
    ]);
  });
});

describe("filters", () => {
  const listed = async (filter: string) => {
    const { status, body } = await v1(`/structures${query({ filter, page_limit: "50" })}`);
    expect(status).toBe(200);
    expect(dig(body, "meta", "data_returned")).toBe(records(body.data).length);
    expect(dig(body, "meta", "more_data_available")).toBe(false);
    return { ids: ids(body).sort(), body };
  };

  it.each<[string, string[]]>([
    ['elements HAS ALL "Si","O"', ["sio2-alpha-quartz"]],
    ['elements HAS "Si"', ["si-diamond", "si3n4-beta", "sic-3c", "sio2-alpha-quartz"]],
    ['elements HAS ANY "Na", "Li"', ["lif-rocksalt", "nacl-conventional", "nacl-rocksalt"]],
    ['elements HAS ONLY "Si", "O", "C"', ["si-diamond", "sic-3c", "sio2-alpha-quartz"]],
    ["elements LENGTH 1", ["al-fcc", "cu-fcc", "fe-bcc", "si-diamond"]],
    [
      "nelements = 2 AND nsites > 2",
      ["nacl-conventional", "si3n4-beta", "sio2-alpha-quartz", "tio2-rutile", "zno-wurtzite"],
    ],
    ["5 < nsites", ["nacl-conventional", "si3n4-beta", "sio2-alpha-quartz", "tio2-rutile"]],
    ['chemical_formula_descriptive STARTS "Si"', ["si-diamond", "si3n4-beta", "sic-3c", "sio2-alpha-quartz"]],
    ['chemical_formula_reduced ENDS WITH "Si"', ["si-diamond", "sic-3c", "sio2-alpha-quartz"]],
    ['chemical_formula_anonymous = "A2B"', ["sio2-alpha-quartz", "tio2-rutile"]],
    [
      "chemical_formula_hill IS KNOWN",
      ["gaas-zincblende", "lif-rocksalt", "mgo-rocksalt", "nacl-conventional", "nacl-rocksalt", "sic-3c"],
    ],
    [
      "chemical_formula_hill IS UNKNOWN AND nelements > 1",
      ["si3n4-beta", "sio2-alpha-quartz", "tio2-rutile", "zno-wurtzite"],
    ],
    ["_fixture_band_gap = 0", ["al-fcc", "cu-fcc", "fe-bcc"]],
    [
      '_fixture_band_gap > 5 AND NOT elements HAS "Na"',
      ["lif-rocksalt", "mgo-rocksalt", "sio2-alpha-quartz"],
    ],
    ["_fixture_band_gap IS UNKNOWN", ["si3n4-beta"]],
    ["NOT nelements = 1 AND _fixture_band_gap < 2", ["gaas-zincblende"]],
    // Unknown band gap: "> 2" does not match, so NOT (…) does (two-valued logic).
    ["NOT (nelements = 1 OR _fixture_band_gap > 2)", ["gaas-zincblende", "si3n4-beta"]],
    [
      'last_modified >= "2024-01-01T00:00:00Z"',
      ["lif-rocksalt", "si3n4-beta", "tio2-rutile", "zno-wurtzite"],
    ],
    ['last_modified < "2020-01-15T10:00:00+01:00"', ["si-diamond"]],
    ["space_group_it_number = 225 AND nsites = 2", ["lif-rocksalt", "mgo-rocksalt", "nacl-rocksalt"]],
    ['elements:elements_ratios HAS "Si":<0.5', ["si3n4-beta", "sio2-alpha-quartz"]],
    ['species.chemical_symbols HAS "Ti"', ["tio2-rutile"]],
    ['references.id HAS "levien1980"', ["sio2-alpha-quartz"]],
    ['references.target.authors.lastname HAS "Prewitt"', ["sio2-alpha-quartz"]],
    ['id = "cu-fcc" OR id = "fe-bcc"', ["cu-fcc", "fe-bcc"]],
    ['structure_features HAS "disorder"', []],
  ])("%s", async (filter, want) => {
    expect((await listed(filter)).ids).toEqual(want);
  });

  it("treats NOT as binding tighter than AND", async () => {
    const loose = await listed("NOT nelements = 1 AND _fixture_band_gap < 2");
    const grouped = await listed("NOT (nelements = 1 AND _fixture_band_gap < 2)");
    expect(loose.ids).toEqual(["gaas-zincblende"]);
    expect(grouped.ids).toHaveLength(10);
    expect(grouped.ids).not.toContain("si-diamond");
  });

  it("filters references by relationship targets", async () => {
    const { body } = await v1(`/references${query({ filter: 'structures.target.elements HAS "Ti"' })}`);
    expect(ids(body)).toEqual(["wyckoff1963"]);
  });

  it("treats another provider's property as unknown, with a warning", async () => {
    const { body } = await listed("_other_band_gap < 1 OR nelements = 1");
    expect(body.data).toHaveLength(4);
    expect(dig(body, "meta", "warnings")).toEqual([
      expect.objectContaining({
        type: "warning",
        code: "_fixture_unknown_property",
        detail: expect.stringContaining("_other_band_gap"),
      }),
    ]);
  });

  it.each<[string, number, string, string]>([
    ["nelements ==", 400, "Bad Request", "INVALID_FILTER"],
    ["nelements = 1 and nsites = 1", 400, "Bad Request", "INVALID_FILTER"],
    ["band_gap > 1", 400, "Bad Request", "UNKNOWN_FILTER_PROPERTY"],
    ["_fixture_volume > 1", 400, "Bad Request", "UNKNOWN_FILTER_PROPERTY"],
    ['last_modified > "2024-02-30T00:00:00Z"', 400, "Bad Request", "INVALID_FILTER_VALUE"],
    ['nelements = "2"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ['"Si" = "Si"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ["nelements > 1e400", 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ['elements = "Si"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
  ])("refuses %s with %d", async (filter, status, title, code) => {
    const error = expectError(await v1(`/structures${query({ filter })}`), status, title);
    expect(error.source).toEqual({ parameter: "filter" });
    expect(dig(error, "meta", "code")).toBe(code);
    expect(error.detail).toContain(`\n  ${filter}\n`);
  });
});

describe("sort and pagination", () => {
  it("sorts ascending and descending on several fields, unknown values last", async () => {
    const { body } = await v1(
      `/structures${query({ filter: "nelements = 2", sort: "-_fixture_band_gap", page_limit: "50" })}`,
    );
    const gaps = records(body.data).map((entry) => dig(entry, "attributes", "_fixture_band_gap"));
    expect(gaps).toEqual([13.6, 8.9, 8.5, 8.5, 7.8, 3.37, 3.03, 2.36, 1.42, null]);
    const multi = await v1(`/structures${query({ sort: "nelements,-nsites", page_limit: "5" })}`);
    expect(ids(multi.body)).toEqual(["si-diamond", "al-fcc", "cu-fcc", "fe-bcc", "si3n4-beta"]);
    const dates = await v1(`/structures${query({ sort: "last_modified", page_limit: "2" })}`);
    expect(ids(dates.body)).toEqual(["si-diamond", "nacl-conventional"]);
  });

  it.each([["elements"], ["nope"], ["-lattice_vectors"]])("refuses sort=%s", async (sort) => {
    const error = expectError(await v1(`/structures${query({ sort })}`), 400, "Bad Request");
    expect(error.source).toEqual({ parameter: "sort" });
  });

  it("pages with absolute links.next until the last page", async () => {
    const first = await v1("/structures");
    expect(first.body.data).toHaveLength(10);
    const seen: string[] = [];
    let url: string | null =
      `${server.versionedBaseUrl}/structures${query({ filter: "nsites >= 1", sort: "id", page_limit: "4" })}`;
    let pages = 0;
    while (url !== null) {
      const { body }: Reply = await get(url);
      pages++;
      seen.push(...ids(body));
      const next = dig(body, "links", "next") as string | null;
      expect(body.meta).toMatchObject({
        data_returned: 14,
        data_available: 14,
        more_data_available: next !== null,
      });
      if (next !== null) {
        expect(next.startsWith(`${server.versionedBaseUrl}/structures?`)).toBe(true);
        const params = new URL(next).searchParams;
        expect([params.get("filter"), params.get("sort"), params.get("page_limit")]).toEqual([
          "nsites >= 1",
          "id",
          "4",
        ]);
      }
      url = next;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(14);
  });

  it("supports page_number and offsets past the end", async () => {
    const byNumber = await v1(`/structures${query({ sort: "id", page_limit: "5", page_number: "2" })}`);
    const byOffset = await v1(`/structures${query({ sort: "id", page_limit: "5", page_offset: "5" })}`);
    expect(ids(byNumber.body)).toEqual(ids(byOffset.body));
    const past = await v1(`/structures${query({ page_offset: "100" })}`);
    expect(past.body.data).toEqual([]);
    expect(dig(past.body, "links", "next")).toBeNull();
    expect(dig(past.body, "meta", "more_data_available")).toBe(false);
  });

  it("refuses page_limit above the maximum with 403", async () => {
    const error = expectError(await v1(`/structures${query({ page_limit: "51" })}`), 403, "Forbidden");
    expect(error.detail).toContain("50");
    const small = await startOptimadeServer({ pageLimitMax: 3 });
    try {
      expect((await get(`${small.versionedBaseUrl}/structures`)).body.data).toHaveLength(3);
      expectError(await get(`${small.versionedBaseUrl}/structures?page_limit=4`), 403, "Forbidden");
    } finally {
      await small.close();
    }
  });

  it.each([
    [{ page_limit: "0" }],
    [{ page_limit: "two" }],
    [{ page_offset: "-1" }],
    [{ page_offset: "1", page_number: "1" }],
    [{ page_cursor: "abc" }],
    [{ unknown_parameter: "1" }],
    [{ response_format: "xml" }],
  ])("refuses %o with 400", async (params) => {
    expectError(await v1(`/structures${query(params)}`), 400, "Bad Request");
  });

  it("accepts prefixed custom parameters and email_address", async () => {
    const { status } = await v1(`/structures${query({ _exmpl_key: "x", email_address: "a@example.com" })}`);
    expect(status).toBe(200);
  });
});

describe("response_fields, include and single entries", () => {
  it("returns only the requested fields, plus id and type", async () => {
    const { body } = await v1(
      `/structures${query({ response_fields: "nelements,chemical_formula_hill", page_limit: "3" })}`,
    );
    for (const entry of records(body.data)) {
      expect(Object.keys(entry.attributes as Json)).toEqual(["nelements", "chemical_formula_hill"]);
      expect(entry.type).toBe("structures");
      expect(typeof entry.id).toBe("string");
    }
    expect(dig(body, "data", 0, "attributes", "chemical_formula_hill")).toBeNull();
    const foreign = await v1(`/structures${query({ response_fields: "_other_x", page_limit: "1" })}`);
    expect(dig(foreign.body, "data", 0, "attributes")).toEqual({ _other_x: null });
    expect(dig(foreign.body, "meta", "warnings")).toHaveLength(1);
    expectError(await v1(`/structures${query({ response_fields: "volume" })}`), 400, "Bad Request");
  });

  it("returns a single entry with its included references", async () => {
    const { status, body } = await v1("/structures/sio2-alpha-quartz?response_fields=nsites");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      type: "structures",
      id: "sio2-alpha-quartz",
      attributes: { nsites: 9 },
    });
    expect(dig(body, "data", "relationships", "references", "data")).toEqual([
      { type: "references", id: "levien1980" },
      { type: "references", id: "wyckoff1963" },
    ]);
    expect(records(body.included).map((entry) => entry.id)).toEqual(["levien1980", "wyckoff1963"]);
    expect(body.meta).toMatchObject({ data_returned: 1, more_data_available: false });
    expect(dig(body, "meta", "query", "representation")).toBe(
      "/structures/sio2-alpha-quartz?response_fields=nsites",
    );
    const reference = await v1("/references/levien1980?ignored_parameter=1");
    expect(dig(reference.body, "data", "attributes", "journal")).toBe("American Mineralogist");
    expect(dig(reference.body, "data", "relationships", "structures", "data")).toEqual([
      { type: "structures", id: "sio2-alpha-quartz" },
    ]);
  });

  it("includes references by default, and only what include asks for", async () => {
    const byDefault = await v1(`/structures${query({ filter: 'id = "si-diamond"' })}`);
    expect(records(byDefault.body.included).map((entry) => entry.id)).toEqual(["wyckoff1963"]);
    const none = await v1(`/structures${query({ filter: 'id = "si-diamond"', include: "" })}`);
    expect(none.body.included).toEqual([]);
    expectError(await v1(`/structures${query({ include: "calculations" })}`), 400, "Bad Request");
  });

  it("answers 404 for unknown entries and endpoints, 501 for dimension_slices", async () => {
    expect(expectError(await v1("/structures/unobtainium"), 404, "Not Found").detail).toContain(
      "unobtainium",
    );
    expectError(await v1("/references/nope"), 404, "Not Found");
    expectError(await v1("/calculations"), 404, "Not Found");
    expectError(await v1("/info/calculations"), 404, "Not Found");
    expectError(await v1("/structures/si-diamond/extra"), 404, "Not Found");
    expectError(await v1("/structures/si-diamond?dimension_slices=dim_sites[0:1:1]"), 501, "Not Implemented");
    expectError(
      await get(`${server.versionedBaseUrl}/structures`, { method: "POST" }),
      405,
      "Method Not Allowed",
    );
  });
});

describe("version negotiation", () => {
  it("answers 553 for unsupported versions", async () => {
    expectError(await get(`${server.baseUrl}/v2/info`), 553, "Version Not Supported");
    expectError(await get(`${server.baseUrl}/v1.3/structures`), 553, "Version Not Supported");
    expectError(await get(`${server.baseUrl}/info?api_hint=v2`), 553, "Version Not Supported");
    expectError(await get(`${server.baseUrl}/info?api_hint=v1.9`), 553, "Version Not Supported");
    expectError(await get(`${server.baseUrl}/info?api_hint=latest`), 400, "Bad Request");
  });

  it("serves the API on the unversioned base URL", async () => {
    const { status, body } = await get(`${server.baseUrl}/structures?api_hint=v1.1&page_limit=2`);
    expect(status).toBe(200);
    expect(dig(body, "meta", "query", "representation")).toBe("/structures?api_hint=v1.1&page_limit=2");
    expect(String(dig(body, "links", "next")).startsWith(`${server.baseUrl}/structures?`)).toBe(true);
    expect((await v1("/info?api_hint=v7")).status).toBe(200);
  });

  it("serves under a base path", async () => {
    const nested = await startOptimadeServer({ basePath: "/optimade/" });
    try {
      expect(nested.baseUrl).toBe(`${nested.url}/optimade`);
      expect(nested.versionedBaseUrl).toBe(`${nested.url}/optimade/v1`);
      expect((await get(`${nested.baseUrl}/versions`)).body.text).toBe("version\n1\n");
      const info = await get(`${nested.versionedBaseUrl}/info`);
      expect(dig(info.body, "data", "attributes", "available_api_versions", 0, "url")).toBe(
        `${nested.url}/optimade/v1/`,
      );
      expectError(await get(`${nested.url}/versions`), 404, "Not Found");
    } finally {
      await nested.close();
    }
  });
});

describe("fault injection and the request log", () => {
  it("answers injected statuses for the next requests, then recovers", async () => {
    server.clearRequests();
    server.failNext(429, 2, { retryAfter: 1 });
    const first = await v1("/info");
    expectError(first, 429, "Too Many Requests");
    expect(first.headers.get("retry-after")).toBe("1");
    expectError(await v1("/structures"), 429, "Too Many Requests");
    server.failNext(503);
    expectError(await v1("/structures"), 503, "Service Unavailable");
    expect((await v1(`/structures${query({ filter: 'elements HAS "Si"' })}`)).status).toBe(200);
    expect(server.requests.map((request) => request.status)).toEqual([429, 429, 503, 200]);
    expect(server.requests[3]).toMatchObject({
      method: "GET",
      path: "/v1/structures",
      query: { filter: 'elements HAS "Si"' },
      search: "?filter=elements+HAS+%22Si%22",
    });
  });
});

describe("seed data", () => {
  let structures: Json[];
  beforeAll(async () => {
    structures = records((await v1("/structures?page_limit=50")).body.data);
  });

  type Vec = [number, number, number];
  interface Attributes {
    readonly elements: string[];
    readonly nelements: number;
    readonly elements_ratios: number[];
    readonly nsites: number;
    readonly species_at_sites: string[];
    readonly species: { name: string }[];
    readonly lattice_vectors: Vec[];
    readonly cartesian_site_positions: Vec[];
    readonly dimension_types: number[];
    readonly nperiodic_dimensions: number;
  }
  const det = ([a, b, c]: Vec[]) =>
    a![0] * (b![1] * c![2] - b![2] * c![1]) -
    a![1] * (b![0] * c![2] - b![2] * c![0]) +
    a![2] * (b![0] * c![1] - b![1] * c![0]);
  const byId = (id: string) => structures.find((entry) => entry.id === id)!.attributes as Attributes;

  /** Distances from site `index` to every other site in the neighbouring cells, ascending. */
  function neighbours(attributes: Attributes, index: number): { species: string; distance: number }[] {
    const lattice = attributes.lattice_vectors as Vec[];
    const positions = attributes.cartesian_site_positions as Vec[];
    const origin = positions[index]!;
    const out: { species: string; distance: number }[] = [];
    positions.forEach((position, other) => {
      for (let i = -1; i <= 1; i++)
        for (let j = -1; j <= 1; j++)
          for (let k = -1; k <= 1; k++) {
            if (other === index && i === 0 && j === 0 && k === 0) continue;
            const shifted = [0, 1, 2].map(
              (axis) =>
                position[axis]! + i * lattice[0]![axis]! + j * lattice[1]![axis]! + k * lattice[2]![axis]!,
            );
            const distance = Math.hypot(...shifted.map((value, axis) => value - origin[axis]!));
            out.push({ species: attributes.species_at_sites[other]!, distance });
          }
    });
    return out.sort((a, b) => a.distance - b.distance);
  }

  it("holds at least twelve consistent structures", () => {
    expect(structures.length).toBeGreaterThanOrEqual(12);
    for (const attributes of structures.map((entry) => entry.attributes as Attributes)) {
      expect([...attributes.elements].sort()).toEqual(attributes.elements);
      expect(attributes.nelements).toBe(attributes.elements.length);
      expect(attributes.elements_ratios).toHaveLength(attributes.nelements);
      expect(attributes.elements_ratios.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
      expect(attributes.cartesian_site_positions).toHaveLength(attributes.nsites);
      expect(attributes.species_at_sites).toHaveLength(attributes.nsites);
      const names = attributes.species.map((species) => species.name);
      for (const name of attributes.species_at_sites) expect(names).toContain(name);
      expect(attributes.nperiodic_dimensions).toBe(
        attributes.dimension_types.reduce((sum, value) => sum + value, 0),
      );
      expect(Math.abs(det(attributes.lattice_vectors))).toBeGreaterThan(1);
    }
  });

  it.each<[string, string, string, string]>([
    ["si-diamond", "Si", "Si", "A"],
    ["sio2-alpha-quartz", "SiO2", "O2Si", "A2B"],
    ["nacl-rocksalt", "NaCl", "ClNa", "AB"],
    ["gaas-zincblende", "GaAs", "AsGa", "AB"],
    ["sic-3c", "SiC", "CSi", "AB"],
    ["mgo-rocksalt", "MgO", "MgO", "AB"],
    ["al-fcc", "Al", "Al", "A"],
    ["fe-bcc", "Fe", "Fe", "A"],
    ["cu-fcc", "Cu", "Cu", "A"],
    ["tio2-rutile", "TiO2", "O2Ti", "A2B"],
    ["zno-wurtzite", "ZnO", "OZn", "AB"],
    ["lif-rocksalt", "LiF", "FLi", "AB"],
    ["si3n4-beta", "Si3N4", "N4Si3", "A4B3"],
  ])("%s has formulas %s / %s / %s", (id, descriptive, reduced, anonymous) => {
    expect(byId(id)).toMatchObject({
      chemical_formula_descriptive: descriptive,
      chemical_formula_reduced: reduced,
      chemical_formula_anonymous: anonymous,
    });
  });

  it.each<[string, number]>([
    ["si-diamond", 5.431 ** 3 / 4],
    ["nacl-conventional", 5.6402 ** 3],
    ["fe-bcc", 2.8665 ** 3 / 2],
    ["sio2-alpha-quartz", (Math.sqrt(3) / 2) * 4.916 ** 2 * 5.4054],
    ["tio2-rutile", 4.5937 ** 2 * 2.9587],
  ])("%s has cell volume %f Å³", (id, volume) => {
    expect(Math.abs(det(byId(id).lattice_vectors))).toBeCloseTo(volume, 3);
  });

  it.each<[string, number, string, number, number, number]>([
    // structure, site, neighbour species, count, min and max distance (Å)
    ["si-diamond", 0, "Si", 4, 2.35, 2.353],
    ["nacl-rocksalt", 0, "Cl", 6, 2.82, 2.821],
    ["gaas-zincblende", 0, "As", 4, 2.447, 2.449],
    ["mgo-rocksalt", 0, "O", 6, 2.105, 2.106],
    ["al-fcc", 0, "Al", 12, 2.863, 2.864],
    ["fe-bcc", 0, "Fe", 8, 2.482, 2.483],
    ["cu-fcc", 0, "Cu", 12, 2.556, 2.557],
    ["sio2-alpha-quartz", 0, "O", 4, 1.6, 1.62],
    ["sio2-alpha-quartz", 3, "Si", 2, 1.6, 1.62],
    ["tio2-rutile", 0, "O", 6, 1.94, 1.99],
    ["zno-wurtzite", 0, "O", 4, 1.97, 1.995],
    ["si3n4-beta", 0, "N", 4, 1.72, 1.75],
    ["si3n4-beta", 12, "Si", 3, 1.72, 1.75],
  ])("%s site %d has %d %s neighbours between %f and %f Å", (id, site, species, count, min, max) => {
    const near = neighbours(byId(id), site).slice(0, count);
    for (const neighbour of near) {
      expect(neighbour.species).toBe(species);
      expect(neighbour.distance).toBeGreaterThanOrEqual(min);
      expect(neighbour.distance).toBeLessThanOrEqual(max);
    }
    // The next neighbour is clearly farther: the coordination number is exactly `count`.
    expect(neighbours(byId(id), site)[count]!.distance).toBeGreaterThan(max + 0.2);
  });
});
