/** The fixture provider's info endpoints in both property formats, and version negotiation. */

import { describe, expect, it } from "vitest";
import { startOptimadeServer } from "../../../../fixtures/optimade/server.js";
import { dig, expectError, fixtureProvider, get, type Json } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

describe("versions and info", () => {
  it("serves /versions as CSV on the unversioned base URL only", async () => {
    const response = await fetch(`${provider.server.baseUrl}/versions`);
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
      available_api_versions: [{ url: `${provider.server.baseUrl}/v1/`, version: "1.2.0" }],
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
    provider.server.setPropertyFormat("v1.1");
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
      provider.server.setPropertyFormat("v1.2");
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
        attributes: expect.objectContaining({ link_type: "root", base_url: provider.server.baseUrl }),
      }),
    ]);
  });
});

describe("version negotiation", () => {
  it("answers 553 for unsupported versions", async () => {
    expectError(await get(`${provider.server.baseUrl}/v2/info`), 553, "Version Not Supported");
    expectError(await get(`${provider.server.baseUrl}/v1.3/structures`), 553, "Version Not Supported");
    expectError(await get(`${provider.server.baseUrl}/info?api_hint=v2`), 553, "Version Not Supported");
    expectError(await get(`${provider.server.baseUrl}/info?api_hint=v1.9`), 553, "Version Not Supported");
    expectError(await get(`${provider.server.baseUrl}/info?api_hint=latest`), 400, "Bad Request");
  });

  it("serves the API on the unversioned base URL", async () => {
    const { status, body } = await get(`${provider.server.baseUrl}/structures?api_hint=v1.1&page_limit=2`);
    expect(status).toBe(200);
    expect(dig(body, "meta", "query", "representation")).toBe("/structures?api_hint=v1.1&page_limit=2");
    expect(String(dig(body, "links", "next")).startsWith(`${provider.server.baseUrl}/structures?`)).toBe(
      true,
    );
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
