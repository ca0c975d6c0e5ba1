/**
 * Type-level tests of the error registry (docs/reference/error-codes.md): an unknown code, a code of
 * another class, an unknown reason or detail do not compile, and narrowing on `code` types `details`.
 * Checked by `vitest --typecheck` (tsc); nothing here runs.
 */
import {
  type AnySchemaRouterError,
  CallRefusedError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  InvocationError,
  InvocationUnavailableError,
  isSchemaRouterError,
  LoadError,
  type NonRetryableInvocationError,
  PlanningError,
  SchemaRouterError,
  type TraceError,
} from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";
import {
  CompileError,
  type CompilerErrorCode,
  ConfigError,
  isCompilerError,
  SourceError,
} from "../../compiler/errors/errors.js";

describe("error codes", () => {
  it("refuses a code no table has", () => {
    // @ts-expect-error not a code
    void new SchemaRouterError("NOT_A_CODE", "message");
    // @ts-expect-error not a code
    void new LoadError("LOCK_MISSING", "message", { path: "schemarouter.lock.json" });
    // @ts-expect-error not a code
    void new CallRefusedError("POLICY_REFUSED", "message");
    // @ts-expect-error not a code
    void new ConfigError("CONFIG_BROKEN", "message", { path: "schemarouter.config.json" });
  });

  it("gives each class only its own codes", () => {
    // @ts-expect-error LOCK_MISMATCH is a LoadError
    void new SchemaRouterError("LOCK_MISMATCH", "message", { reason: "artifact-digest" });
    // @ts-expect-error POLICY_DENIED is a CallRefusedError
    void new LoadError("POLICY_DENIED", "message");
    // @ts-expect-error HTTP_STATUS is an InvocationError
    void new CallRefusedError("HTTP_STATUS", "message", { route: "a.b", status: 500, detail: "" });
    // @ts-expect-error INVOCATION_UNAVAILABLE is an InvocationUnavailableError
    void new InvocationError("INVOCATION_UNAVAILABLE", "message");
    // @ts-expect-error INVALID_RUN_EVENT is a TraceError
    void new PlanningError("INVALID_RUN_EVENT", "message");
    // @ts-expect-error URL_NOT_ALLOWED is a SourceError
    void new ConfigError("URL_NOT_ALLOWED", "message", { source: "petstore" });
    // @ts-expect-error CONFIG_INVALID is a ConfigError
    void new SourceError("petstore", "CONFIG_INVALID", "message");
    // A code several classes carry is accepted by each.
    void new CallRefusedError("TRANSPORT_REFUSED", "message", { route: "a.b", header: "host" });
    void new InvocationError("TRANSPORT_REFUSED", "message", { route: "a.b", reason: "next-origin" });
    void new SchemaRouterError("POLICY_INVALID", "message", { option: "rules" });
  });

  it("derives each class's codes from the table", () => {
    expectTypeOf<ErrorCodeOf<"PlanningError">>().toEqualTypeOf<
      | "ANALYZER_FAILED"
      | "ANALYZER_OUTPUT_INVALID"
      | "DECISION_PLUGIN_REFUSED"
      | "DECISION_PLUGIN_FAILED"
      | "DECISION_BACKEND_FAILED"
      | "DECISION_MALFORMED"
      | "DECISION_UNKNOWN_OPTION"
      | "DECISION_DUPLICATE_OPTION"
      | "DECISION_SCORE_INVALID"
    >();
    expectTypeOf<InvocationUnavailableError["code"]>().toEqualTypeOf<"INVOCATION_UNAVAILABLE">();
    expectTypeOf<NonRetryableInvocationError["code"]>().toEqualTypeOf<"TOOL_ERROR">();
    expectTypeOf<"INVOCATION_UNAVAILABLE">().toMatchTypeOf<InvocationError["code"]>();
    expectTypeOf<LoadError["code"]>().toEqualTypeOf<ErrorCodeOf<"LoadError">>();
    expectTypeOf<TraceError["code"]>().toMatchTypeOf<ErrorCode>();
    expectTypeOf(ERROR_CODES).toEqualTypeOf<Readonly<Record<ErrorCode, string>>>();
    expectTypeOf<"LOCK_FROZEN">().toMatchTypeOf<CompilerErrorCode>();
    expectTypeOf<"LOCK_FROZEN">().not.toMatchTypeOf<ErrorCode>();
  });
});

describe("error details", () => {
  it("refuses an unknown reason", () => {
    // @ts-expect-error "maybe" is not a reason of APPROVAL_DENIED
    void new CallRefusedError("APPROVAL_DENIED", "message", { route: "a.b", reason: "maybe" });
    // @ts-expect-error "stale" is not a reason of LOCK_MISMATCH
    void new LoadError("LOCK_MISMATCH", "message", { reason: "stale" });
    // @ts-expect-error "down" is not a reason of INVOCATION_UNAVAILABLE
    void new InvocationUnavailableError("message", { reason: "down" });
    // @ts-expect-error "unsure" is not a reason of HOOK_FAILED
    void new CallRefusedError("HOOK_FAILED", "message", {
      route: "a.b",
      stage: "before",
      hook: 0,
      reason: "unsure",
    });
  });

  it("refuses an unknown member and a missing required one", () => {
    // @ts-expect-error UNKNOWN_ENDPOINT has no `route`
    void new CallRefusedError("UNKNOWN_ENDPOINT", "message", { tool: "t", endpoint: "e", route: "t.e" });
    // @ts-expect-error APPROVAL_DENIED requires `reason`
    void new CallRefusedError("APPROVAL_DENIED", "message", { route: "a.b" });
    // @ts-expect-error APPROVAL_DENIED requires details
    void new CallRefusedError("APPROVAL_DENIED", "message");
    // @ts-expect-error a SourceError's `source` is its first argument; `status` is a number
    void new SourceError("petstore", "SOURCE_FETCH_FAILED", "message", { status: "404" });
    // Codes whose details are all optional may leave them out.
    void new InvocationUnavailableError("message");
    void new CompileError("TEMPLATE_INVALID", "message");
  });

  it("types the details of a code exactly", () => {
    expectTypeOf<ErrorDetailsOf<"APPROVAL_DENIED">>().toEqualTypeOf<{
      readonly route: string;
      readonly reason: "missing-callback" | "rejected" | "timeout" | "callback-error";
    }>();
    expectTypeOf<ErrorDetailsOf<"ANALYZER_FAILED">>().toEqualTypeOf<{}>();
    expectTypeOf<ErrorDetailsOf<"INVALID_FILTER">["expected"]>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ErrorDetailsOf<"UNSUPPORTED_FILTER">["status"]>().toEqualTypeOf<501>();
  });

  it("narrows details on `code`", () => {
    const error: unknown = undefined;
    if (isSchemaRouterError(error)) {
      expectTypeOf(error).toEqualTypeOf<AnySchemaRouterError>();
      if (error.code === "APPROVAL_DENIED") {
        expectTypeOf(error.details.reason).toEqualTypeOf<
          "missing-callback" | "rejected" | "timeout" | "callback-error"
        >();
        expectTypeOf(error.details.route).toEqualTypeOf<string>();
      }
      switch (error.code) {
        case "BUDGET_EXCEEDED":
          expectTypeOf(error.details.limit).toEqualTypeOf<
            "calls" | "attempts" | "remoteAttempts" | "wallClock" | "toolQuota" | "cost" | "rate"
          >();
          break;
        case "LOCK_MISMATCH":
          expectTypeOf(error.details.source).toEqualTypeOf<string | undefined>();
          break;
      }
    }
    if (isCompilerError(error) && error.code === "SOURCE_REDIRECT_REFUSED") {
      expectTypeOf(error.details).toEqualTypeOf<{
        readonly source: string;
        readonly from: string;
        readonly to: string;
      }>();
    }
  });

  it("gives a class the members its codes have, before narrowing", () => {
    const error = new InvocationUnavailableError("message");
    expectTypeOf(error.details.reason).toEqualTypeOf<
      "timeout" | "connection" | "aborted" | "cooldown" | undefined
    >();
    const failure = {} as InvocationError;
    expectTypeOf(failure.details.retryAfter).toEqualTypeOf<unknown>();
    // @ts-expect-error no InvocationError code has `lockfileVersion`
    void failure.details.lockfileVersion;
  });
});
