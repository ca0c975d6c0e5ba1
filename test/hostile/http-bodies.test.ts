/**
 * Hostile names and media types on the new body paths (docs/sources/openapi-bodies.md), sent through
 * the real HTTP transport to node:http on 127.0.0.1: part names from a remote document cannot add
 * part headers, and a hand-built contract whose part or response media type is not a media type is
 * refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InvocationContext } from "../../runtime/boundary/invoker.js";
import type { EndpointSpec, HttpBodyPart, HttpResponseBody } from "../../runtime/model/specs.js";
import { createHttpInvoker } from "../../runtime/transports/http/transport.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_request, response) => sendJson(response, 200, { ok: true }));
});
afterAll(() => server.close());

function upload(parts: HttpBodyPart[], names: string[], responseBody?: HttpResponseBody): EndpointSpec {
  return {
    name: "upload",
    description: "upload",
    effect: "write",
    parameters: names.map((name, index) => ({
      name: `p${index}`,
      wireName: name,
      location: "body",
      required: false,
      schema: { type: "string" },
    })),
    inputSchema: { type: "object" },
    outputSchema: {},
    fields: [],
    execution: {
      kind: "http",
      method: "post",
      path: "/upload",
      requestBody: { contentType: "multipart/form-data", mode: "properties", required: true, parts },
      ...(responseBody !== undefined ? { responseBody } : {}),
      successStatus: [200],
    },
  };
}

function invoke(endpoint: EndpointSpec, args: Record<string, unknown>) {
  const invoker = createHttpInvoker({ baseUrl: server.url });
  const context = {
    call: { tool: "api", endpoint: endpoint.name, arguments: args },
    endpoint,
    signal: new AbortController().signal,
  } as unknown as InvocationContext;
  return invoker.invoke(context);
}

describe("multipart bodies from hostile contracts", () => {
  it("a part name with quotes and CR/LF is escaped: it names one part and adds no header", async () => {
    const name = 'a"\r\nContent-Type: text/evil\r\nX: "y';
    await invoke(upload([{ name, encoding: "text" }], [name]), { p0: "value" });
    const sent = server.requests.at(-1)!;
    const wire = sent.rawBody.toString("latin1");
    expect(wire).toContain('name="a%22%0D%0AContent-Type: text/evil%0D%0AX: %22y"\r\n\r\nvalue\r\n');
    expect(wire).not.toContain("\r\nContent-Type: text/evil");
    const form = await new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": String(sent.headers["content-type"]) },
      body: sent.rawBody,
    }).formData();
    // The parser reverses the escapes: the server sees exactly one part, under the name as declared.
    expect([...form.entries()]).toEqual([[name, "value"]]);
  });

  it.each([
    ["a CR/LF header injection", "text/plain\r\nX-Injected: 1"],
    ["a parameter list", "text/plain; charset=utf-8"],
    ["an empty type", ""],
  ])("a part Content-Type with %s is refused before sending (TRANSPORT_REFUSED)", async (_, contentType) => {
    const before = server.requests.length;
    const refused = await invoke(upload([{ name: "f", encoding: "file", contentType }], ["f"]), {
      p0: "aGk=",
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: "TRANSPORT_REFUSED",
      details: { reason: "part-content-type", argument: "f" },
    });
    expect((refused as Error).message).toContain("re-run `schemarouter compile`");
    expect(server.requests.length).toBe(before);
  });

  it("a text response media type that is not a media type is refused before sending", async () => {
    const before = server.requests.length;
    const refused = await invoke(
      upload([], [], { kind: "text", mediaType: "text/plain\r\nX-Injected: 1" }),
      {},
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "TRANSPORT_REFUSED", details: { reason: "response-media-type" } });
    expect(server.requests.length).toBe(before);
  });
});
