/**
 * The error registry (docs/reference/error-codes.md): the tables name real classes in their real
 * hierarchy, codes are unique and well formed, every `reason` is a closed list, the derived code
 * records are the tables', and the classes keep `code`, `message`, `details` and `cause` as thrown.
 */

import { describe, expect, it } from "vitest";
import {
  COMPILER_ERROR_CODES,
  CompileError,
  ConfigError,
  isCompilerError,
  SourceError,
} from "../../../compiler/errors/errors.js";
import { COMPILER_ERROR_CLASSES, COMPILER_ERRORS } from "../../../compiler/errors/registry.js";
import { UnsupportedPatternError } from "../../../runtime/boundary/regexp.js";
import {
  CallRefusedError,
  ERROR_CODES,
  InvocationError,
  InvocationUnavailableError,
  isSchemaRouterError,
  LoadError,
  NonRetryableInvocationError,
  SchemaRouterError,
} from "../../../runtime/errors/errors.js";
import { ERROR_CLASSES, ERRORS } from "../../../runtime/errors/registry.js";
import type { ErrorRow } from "../../../runtime/errors/table.js";
import { StateError } from "../../../runtime/governed/state/errors.js";
import { PLANNING_ERROR_CODES, PlanningError } from "../../../runtime/planner/errors.js";
import { EmbedderError } from "../../../runtime/retrieval/embeddings/errors.js";
import { RetrievalError } from "../../../runtime/retrieval/errors.js";
import { TraceError } from "../../../runtime/traces/events.js";
import {
  FILTER_ERROR_CODES,
  FilterQueryError,
  FilterSyntaxError,
} from "../../../runtime/transports/optimade/filter/errors.js";

/** Each class by name; its prototype chain is checked against the tables. */
const CLASSES: Readonly<Record<string, object>> = {
  SchemaRouterError,
  LoadError,
  CallRefusedError,
  InvocationError,
  InvocationUnavailableError,
  NonRetryableInvocationError,
  UnsupportedPatternError,
  FilterSyntaxError,
  FilterQueryError,
  RetrievalError,
  PlanningError,
  EmbedderError,
  StateError,
  TraceError,
  ConfigError,
  SourceError,
  CompileError,
};

const DECLARED = { ...ERROR_CLASSES, ...COMPILER_ERROR_CLASSES } as Readonly<
  Record<string, { readonly parent?: string }>
>;
const ROWS: readonly [string, ErrorRow][] = [...Object.entries(ERRORS), ...Object.entries(COMPILER_ERRORS)];
/** `reason` members that are the policy's own words, not a closed list. */
const FREE_TEXT_REASONS = new Set(["POLICY_DENIED"]);

const classesOf = (row: ErrorRow): readonly string[] =>
  typeof row.class === "string" ? [row.class] : row.class;

describe("error registry", () => {
  it("declares exactly the error classes, in their real hierarchy", () => {
    expect(Object.keys(DECLARED).sort()).toEqual(Object.keys(CLASSES).sort());
    for (const [name, row] of Object.entries(DECLARED)) {
      const parent = row.parent === undefined ? Error : CLASSES[row.parent];
      expect([name, Object.getPrototypeOf(CLASSES[name])]).toEqual([name, parent]);
    }
  });

  it("gives every code one row naming declared classes, with a meaning", () => {
    const codes = ROWS.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, row] of ROWS) {
      // The pattern run events accept for `code` (traces/events.ts).
      expect(code).toMatch(/^[A-Z][A-Z0-9_]{0,63}$/);
      expect(classesOf(row).filter((name) => !Object.hasOwn(DECLARED, name))).toEqual([]);
      expect(row.meaning).toMatch(/^\S.*\.$/);
    }
  });

  it("lists every `reason` as a closed set of values", () => {
    for (const [code, row] of ROWS) {
      for (const [name, field] of Object.entries(row.details)) {
        if (field.kind === "oneOf") {
          expect(field.values?.length ?? 0).toBeGreaterThan(0);
          expect(new Set(field.values).size).toBe(field.values?.length);
        }
        if (name === "reason" && !FREE_TEXT_REASONS.has(code))
          expect([code, field.kind]).toEqual([code, "oneOf"]);
      }
    }
  });

  it("derives the code records from the tables", () => {
    const meanings = (rows: Readonly<Record<string, ErrorRow>>, ...classes: string[]) =>
      Object.fromEntries(
        Object.entries(rows)
          .filter(([, row]) => classes.length === 0 || classesOf(row).some((name) => classes.includes(name)))
          .map(([code, row]) => [code, row.meaning]),
      );
    expect(ERROR_CODES).toEqual(meanings(ERRORS));
    expect(Object.keys(ERROR_CODES)).toEqual(Object.keys(ERRORS));
    expect(COMPILER_ERROR_CODES).toEqual(meanings(COMPILER_ERRORS));
    expect(PLANNING_ERROR_CODES).toEqual(meanings(ERRORS, "PlanningError"));
    expect(Object.keys(FILTER_ERROR_CODES)).toEqual([
      "INVALID_FILTER",
      "INVALID_FILTER_VALUE",
      "UNKNOWN_FILTER_PROPERTY",
      "UNSUPPORTED_FILTER",
    ]);
    expect(Object.isFrozen(ERROR_CODES)).toBe(true);
  });
});

describe("error classes", () => {
  it("keep code, message, details and cause, and name the class", () => {
    const cause = new Error("disk");
    const error = new LoadError(
      "LOCK_NOT_FOUND",
      "No lockfile.",
      { path: "schemarouter.lock.json" },
      { cause },
    );
    expect(error).toBeInstanceOf(SchemaRouterError);
    expect(isSchemaRouterError(error)).toBe(true);
    expect([error.name, error.code, error.message]).toEqual(["LoadError", "LOCK_NOT_FOUND", "No lockfile."]);
    expect(error.details).toEqual({ path: "schemarouter.lock.json" });
    expect(error.cause).toBe(cause);
    expect(new SchemaRouterError("POLICY_INVALID", "bad").details).toEqual({});
    expect(isSchemaRouterError(new Error("plain"))).toBe(false);
  });

  it("mark invocation failures retryable as before", () => {
    expect(new InvocationUnavailableError("down").retryable).toBe(true);
    expect(new InvocationUnavailableError("down", {}, { retryable: false }).retryable).toBe(false);
    expect(new NonRetryableInvocationError("no such record").retryable).toBe(false);
    expect(new InvocationError("TOOL_ERROR", "app error").retryable).toBe(false);
    expect(new InvocationUnavailableError("down").code).toBe("INVOCATION_UNAVAILABLE");
  });

  it("name the source of a SourceError in its message and details", () => {
    const error = new SourceError("petstore", "SOURCE_FETCH_FAILED", "answered HTTP 404.", { status: 404 });
    expect([error.name, error.source, error.message]).toEqual([
      "SourceError",
      "petstore",
      'source "petstore": answered HTTP 404.',
    ]);
    expect(error.details).toEqual({ source: "petstore", status: 404 });
    expect([isCompilerError(error), isSchemaRouterError(error)]).toEqual([true, true]);
    expect(isCompilerError(new LoadError("LOCK_NOT_FOUND", "x", { path: "p" }))).toBe(false);
  });
});
