/** The fixture provider's sort and pagination: absolute next links, page numbers, offsets, limits, custom parameters. */

import { describe, expect, it } from "vitest";
import { startOptimadeServer } from "../../../../fixtures/optimade/server.js";
import { dig, expectError, fixtureProvider, get, ids, query, type Reply, records } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

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
      `${provider.server.versionedBaseUrl}/structures${query({ filter: "nsites >= 1", sort: "id", page_limit: "4" })}`;
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
        expect(next.startsWith(`${provider.server.versionedBaseUrl}/structures?`)).toBe(true);
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
