/**
 * `fields: []` on an endpoint that declares fields is refused before any request
 * (docs/runtime/field-projection.md): an empty projection is a mistake, not a request for `{}`.
 */
import { describe, expect, it } from "vitest";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { sendJson, startServer } from "../../helpers/http-server.js";
import { httpTool } from "../../helpers/http-tool.js";

const cleanups = cleanupAfterEach();

describe("an empty field selection", () => {
  it("is NO_FIELDS_SELECTED, naming the fields to choose from, and the server sees nothing", async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, { id: "a", name: "x" }));
    cleanups.push(() => server.close());
    const tool = httpTool(server.url, cleanups, {
      endpoint: {
        outputSchema: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
        fields: [
          { id: "id", path: ["id"], schema: { type: "string" } },
          { id: "name", path: ["name"], schema: { type: "string" } },
        ],
      },
    });
    await expect(tool.router.call(tool.call({}, []))).rejects.toMatchObject({
      code: "NO_FIELDS_SELECTED",
      message:
        "api.get: fields is empty. Select one or more of id, name, or leave fields out for the defaults.",
      details: { route: "api.get", declared: ["id", "name"] },
    });
    expect(server.requests).toHaveLength(0);
    const result = await tool.router.call(tool.call({}, ["name"]));
    expect(result.data).toEqual({ name: "x" });
    expect(server.requests).toHaveLength(1);
  });

  it("is still allowed on an endpoint that declares no fields", async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, {}));
    cleanups.push(() => server.close());
    const tool = httpTool(server.url, cleanups);
    const result = await tool.router.call(tool.call({}, []));
    expect(result.data).toEqual({});
  });
});
