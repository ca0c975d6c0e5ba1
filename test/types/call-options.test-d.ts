/**
 * Type-level tests: a generated client method takes the run options of router.invoke next to
 * `fields` (docs/runtime/bindings.md), and refuses options a single call has not got.
 */
import { ExecutionBudget, RetryPolicy, type RunConfig, type SchemaRouter } from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";
import { createClient } from "../../examples/generated/index.js";

declare const router: SchemaRouter;
const client = createClient(router);

describe("typed call options", () => {
  it("accepts retry, budget, tags, metadata, runId and signal with fields", () => {
    void client.petstore.getPetById(
      { petId: "rex" },
      {
        fields: ["name"],
        retry: new RetryPolicy({ maxAttempts: 2 }),
        budget: new ExecutionBudget({ maxCalls: 1 }),
        tags: ["nightly"],
        metadata: { ticket: "T-9" },
        runId: "run-1",
        signal: AbortSignal.timeout(1000),
        includePayloads: false,
      },
    );
  });

  it("types each option as RunConfig does", () => {
    type Options = NonNullable<Parameters<typeof client.petstore.getPetById>[1]>;
    expectTypeOf<Options["retry"]>().toEqualTypeOf<RunConfig["retry"]>();
    expectTypeOf<Options["budget"]>().toEqualTypeOf<RunConfig["budget"]>();
    expectTypeOf<Options["tags"]>().toEqualTypeOf<RunConfig["tags"]>();
    expectTypeOf<Options["signal"]>().toEqualTypeOf<RunConfig["signal"]>();
  });

  it("refuses wrong types, misspellings and options of multi-call runs", () => {
    // @ts-expect-error retry is a RetryPolicy, not a count
    void client.petstore.getPetById({ petId: "rex" }, { retry: 3 });
    // @ts-expect-error tags are strings
    void client.petstore.getPetById({ petId: "rex" }, { tags: [1] });
    // @ts-expect-error `retries` is not an option
    void client.petstore.getPetById({ petId: "rex" }, { retries: 3 });
    // @ts-expect-error concurrency shapes runs of many calls
    void client.petstore.getPetById({ petId: "rex" }, { concurrency: 2 });
    // @ts-expect-error mode shapes runs of many calls
    void client.petstore.getPetById({ petId: "rex" }, { mode: "parallelReadOnly" });
  });
});
