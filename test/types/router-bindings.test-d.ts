/**
 * Type-level tests of the generated `RouterBindings` (examples/generated/index.ts): one key per remote
 * source in its transport's binding shape, so `SchemaRouter.load<RouterBindings>({ bindings })` refuses
 * a misspelt source or binding key at compile time (docs/runtime/bindings.md).
 */
import {
  type BindingOf,
  type HttpBindingOptions,
  type Invoker,
  type McpBindingOptions,
  type OptimadeBindingOptions,
  SchemaRouter,
} from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";
import type { RouterBindings } from "../../examples/generated/index.js";

declare const invoker: Invoker;
// Type-checked only (vitest --typecheck), never run.
const load = () => SchemaRouter.load<RouterBindings>;

describe("RouterBindings", () => {
  it("has one optional key per remote source, with that transport's binding shape", () => {
    expectTypeOf<keyof RouterBindings>().toEqualTypeOf<
      "bookshop" | "library" | "materials" | "math" | "memory" | "petstore"
    >();
    expectTypeOf<NonNullable<RouterBindings["bookshop"]>>().toEqualTypeOf<BindingOf<"odata">>();
    expectTypeOf<NonNullable<RouterBindings["library"]>>().toEqualTypeOf<BindingOf<"graphql">>();
    expectTypeOf<NonNullable<RouterBindings["math"]>>().toEqualTypeOf<BindingOf<"openrpc">>();
    expectTypeOf<RouterBindings["petstore"]>().toEqualTypeOf<
      HttpBindingOptions | { readonly invoker: Invoker } | undefined
    >();
    expectTypeOf<NonNullable<RouterBindings["memory"]>>().toEqualTypeOf<BindingOf<"mcp">>();
    expectTypeOf<McpBindingOptions>().toExtend<NonNullable<RouterBindings["memory"]>>();
    expectTypeOf<OptimadeBindingOptions>().toExtend<NonNullable<RouterBindings["materials"]>>();
  });

  it("accepts the bindings of each source kind and a trusted invoker", () => {
    void load()({
      bindings: {
        petstore: { baseUrl: "https://petstore.example.com/v1", headers: { authorization: "Bearer x" } },
        memory: { mcp: { stdio: { command: "node", args: ["server.js"], env: ["MEMORY_FILE_PATH"] } } },
        materials: { optimade: {} },
      },
    });
    void load()({ bindings: { petstore: { invoker } } });
    void load()({ bindings: {} });
  });

  it("refuses a misspelt source name", () => {
    // @ts-expect-error "petstor" is not a source of this project
    void load()({ bindings: { petstor: { baseUrl: "https://petstore.example.com/v1" } } });
  });

  it("refuses an axios-style baseURL, a missing baseUrl and another transport's shape", () => {
    // @ts-expect-error the key is baseUrl
    void load()({ bindings: { petstore: { baseURL: "https://petstore.example.com/v1" } } });
    // @ts-expect-error an HTTP binding needs baseUrl
    void load()({ bindings: { petstore: { headers: { authorization: "Bearer x" } } } });
    // @ts-expect-error memory is an MCP source, not an HTTP one
    void load()({ bindings: { memory: { baseUrl: "https://mcp.example.com" } } });
    // @ts-expect-error timeoutMs is a number
    void load()({ bindings: { petstore: { baseUrl: "https://x.example", timeoutMs: "5s" } } });
  });

  it("without the type argument, load still takes any tool's binding (checked at load)", () => {
    void SchemaRouter.load({ bindings: { anything: { baseUrl: "https://x.example" } } });
  });
});
