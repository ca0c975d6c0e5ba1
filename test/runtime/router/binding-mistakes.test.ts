/**
 * Binding mistakes at SchemaRouter.load and createHttpInvoker are typed errors naming the key
 * (docs/common-mistakes.md): a missing baseUrl, an axios-style baseURL, unknown keys, a binding for a
 * tool that is not locked, and limits that are not positive integers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { createHttpInvoker } from "../../../runtime/transports/http/transport.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";
import { failure } from "../../helpers/refusal.js";

let project: TempProject;
beforeAll(async () => {
  project = tempProject("binding-mistakes");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
});

const load = (bindings: Record<string, unknown>) =>
  failure(SchemaRouter.load({ root: project.dir, bindings: bindings as never }));

describe("bindings at SchemaRouter.load", () => {
  it("an axios-style baseURL is named with the key meant", async () => {
    const error = await load({ petstore: { baseURL: "http://127.0.0.1:1" } });
    expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key: "baseURL", tool: "petstore" } });
    expect(error.message).toBe(
      'bindings.petstore: "baseURL" is not a key of an HTTP binding — did you mean "baseUrl"? Keys: baseUrl, headers, query, timeoutMs, maxResponseBytes, dispatcher, allowPlaintextCredentials.',
    );
  });

  it("timeout is refused, pointing at timeoutMs", async () => {
    const error = await load({ petstore: { baseUrl: "http://127.0.0.1:1", timeout: 5000 } });
    expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key: "timeout" } });
    expect(error.message).toContain('"timeout" is not a key of an HTTP binding — did you mean "timeoutMs"?');
  });

  it("an unrelated key (binding) lists the keys", async () => {
    const error = await load({ petstore: { baseUrl: "http://127.0.0.1:1", binding: "http" } });
    expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key: "binding" } });
    expect(error.message).toContain('"binding" is not a key of an HTTP binding. Keys: baseUrl,');
  });

  it("a missing baseUrl is named (not a TypeError)", async () => {
    const error = await load({ petstore: { headers: { authorization: "Bearer x" } } });
    expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key: "baseUrl", tool: "petstore" } });
    expect(error.message).toBe(
      'bindings.petstore: baseUrl is missing; an HTTP binding is { baseUrl: "https://api.example.com", headers: { … } }.',
    );
  });

  it("a binding for a tool that is not locked names the nearest tool and the locked ones", async () => {
    const error = await load({ petstor: { baseUrl: "http://127.0.0.1:1" } });
    expect(error).toMatchObject({ code: "UNKNOWN_TOOL", details: { tool: "petstor" } });
    expect(error.message).toBe(
      'bindings.petstor: no such tool in the lockfile — did you mean "petstore"? Locked tools: petstore.',
    );
  });

  it.each([0, -1, 1.5, Number.NaN, "1000", Number.POSITIVE_INFINITY])(
    "timeoutMs and maxResponseBytes of %s are refused",
    async (value) => {
      for (const key of ["timeoutMs", "maxResponseBytes"]) {
        const error = await load({ petstore: { baseUrl: "http://127.0.0.1:1", [key]: value } });
        expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key, tool: "petstore" } });
        expect(error.message).toContain(`bindings.petstore: ${key} must be a positive integer (got `);
      }
    },
  );

  it("a well-formed binding still loads", async () => {
    const router = await SchemaRouter.load({
      root: project.dir,
      bindings: { petstore: { baseUrl: "http://127.0.0.1:1", timeoutMs: 1000, maxResponseBytes: 1024 } },
    });
    await router.close();
  });
});

describe("createHttpInvoker", () => {
  it.each([0, -1, 1.5, Number.NaN, "1000"])("refuses a limit of %s with BINDING_INVALID", (value) => {
    for (const key of ["timeoutMs", "maxResponseBytes"]) {
      expect(() => createHttpInvoker({ baseUrl: "https://api.example.com", [key]: value } as never)).toThrow(
        expect.objectContaining({ code: "BINDING_INVALID", details: { key } }),
      );
    }
  });

  it("refuses a missing or non-string baseUrl with BINDING_INVALID", () => {
    expect(() => createHttpInvoker({} as never)).toThrow(
      expect.objectContaining({ code: "BINDING_INVALID", details: { key: "baseUrl" } }),
    );
    expect(() => createHttpInvoker({ baseUrl: 8080 } as never)).toThrow(
      /baseUrl is not a URL string \(got number\)/,
    );
  });
});
