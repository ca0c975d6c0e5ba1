/** Output validation before projection, and projection of object and `*` array outputs. */
import { describe, expect, it } from "vitest";
import { sendJson } from "../../../helpers/http-server.js";
import { httpHarness, refusal } from "./harness.js";

const harness = httpHarness();

describe("output validation and projection", () => {
  it("projects the selected fields of an object output", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, { id: "1", name: "n", count: 4, extra: true }),
    );
    expect(await h.call("getItem", { id: "1" }, ["name", "count"])).toEqual({ name: "n", count: 4 });
  });

  it("projects `*` fields of an array output record by record", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, [
        { id: "a", score: 1 },
        { id: "b", score: 2, x: 0 },
      ]),
    );
    expect(await h.call("search", {}, ["[].id"])).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("validates the raw output before projection (OUTPUT_SCHEMA_VIOLATION even when the bad field is not selected)", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, { id: "1", name: "n", count: "four" }),
    );
    const error = await refusal(h.call("getItem", { id: "1" }, ["name"]));
    expect(error.code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it("refuses a missing required output property (OUTPUT_SCHEMA_VIOLATION)", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, { name: "n" }));
    expect((await refusal(h.call("getItem", { id: "1" }, ["name"]))).code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });
});
