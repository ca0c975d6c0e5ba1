/**
 * JSON Schema `pattern` / `patternProperties` run on a linear-time engine (RE2 via
 * re2js), so a remote pattern like `^(a+)+$` cannot block the event loop. Patterns RE2 cannot run
 * (backreferences, lookaround) or that are not ECMA-262 fail closed when the validator is compiled:
 * INPUT_SCHEMA_VIOLATION / OUTPUT_SCHEMA_VIOLATION with details.reason "unsupported-pattern".
 */

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildMcpSource } from "../../../compiler/sources/mcp/index.js";
import { openapiAdapter } from "../../../compiler/sources/openapi/index.js";
import { compilePattern, patternProblem, UnsupportedPatternError } from "../../../runtime/boundary/regexp.js";
import { ValidatorSet } from "../../../runtime/boundary/validation.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { JsonSchema, ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import type { ListedTool } from "../../../runtime/transports/mcp/list.js";
import { type TempProject, tempProject } from "../../helpers/project.js";

/** Patterns both engines run, with inputs where JavaScript's own RegExp is the reference. */
const AGREEING: readonly [string, readonly string[]][] = [
  ["^[a-z]+$", ["abc", "aBc", ""]],
  ["^\\d{4}-\\d{2}$", ["2024-01", "2024-1", "٢٠٢٤-01"]],
  ["\\u00e9", ["é", "e"]],
  ["^[^/]+$", ["a/b", "ab"]],
  ["^(?<year>\\d{4})$", ["2024", "20x4"]],
  ["^\\p{L}+$", ["héllo", "h3llo"]],
  ["^\\p{Lu}[\\p{L}\\p{N}]*$", ["Ab1", "ab1"]],
  ["^.$", ["😀", "a", "\n", "\r", "\u2028", "ab"]],
  ["^\\u{1F600}$", ["😀", "x"]],
  ["a$", ["a\n", "ba"]],
  ["^\\s+$", [" \t", "\u00a0", "\u2003", "\v", "x"]],
  ["^\\S+$", ["ab", "a\u00a0b", "a\vb"]],
  ["^[\\s,]+$", [", \u3000", "x,"]],
  ["^[]$", ["", "a"]],
  ["^[^]$", ["a", "\n", ""]],
  ["^(?:https?://)?[^\\s]+$", ["http://x", "http://x y"]],
  ["^[\\w.-]+@[\\w.-]+\\.[a-z]{2,}$", ["a.b@c.io", "a@b"]],
  ["^\\$\\{[A-Z_]+\\}$", ["$\u007BHOME}", "$HOME"]],
  ["\\bword\\b", ["a word here", "swordfish"]],
  ["^\\uD83D\\uDE00$", ["😀", "\uD83D"]],
  ["^[\\b]$", ["\b", "b"]],
  ["^\\cA\\x41\\0\\v$", ["\u0001A\0\v", "cAx410v"]],
  ["^[[:a]+$", ["[:a", "alpha"]],
  ["^[\\-\\]\\\\]+$", ["-]\\", "x"]],
  ["^\\/\\.\\*$", ["/.*", "/a*"]],
  ["^a{2,3}?b*?$", ["aab", "ab"]],
  // Escape sets inside classes keep their ECMA-262 meaning (RE2's own `\S` in a class is ASCII).
  ["^[\\S]+$", ["ab", "a\u00a0b", "a\u2028b", "a\uFEFFb"]],
  ["^[^\\S]+$", [" \u00a0\u3000", "a"]],
  ["^[\\S\\s]$", ["\u00a0", "x", "\n"]],
  ["^[^\\s\\d]+$", ["ab", "a1", "a\u2003"]],
  ["^[\\W\\d]+$", ["-1", "a"]],
  ["^[^\\D]+$", ["123", "12a"]],
  ["^\\p{Script=Greek}+$", ["αβγ", "ab", "Ω"]],
  ["^[\\p{Lu}\\d]+$", ["AB12", "ab"]],
  ["^\\P{L}+$", ["123", "1a"]],
];

describe("the linear-time pattern engine", () => {
  it.each(AGREEING)("%s matches like ECMA-262", (pattern, inputs) => {
    const compiled = compilePattern(pattern);
    const native = new RegExp(pattern, "u");
    for (const input of inputs) expect([input, compiled.test(input)]).toEqual([input, native.test(input)]);
  });

  it("matches a catastrophic-backtracking pattern in linear time", () => {
    const compiled = compilePattern("^(a+)+$");
    // A backtracking engine takes minutes here; RE2 answers at once (no timing assertion needed:
    // the test would simply not finish).
    expect(compiled.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(compiled.test("a".repeat(100_000))).toBe(true);
  });

  it.each([
    ["a lookahead", "^(?!admin)"],
    ["a lookbehind", "(?<=a)b"],
    ["a backreference", "(a)\\1"],
    ["a named backreference", "(?<x>a)\\k<x>"],
    ["a pattern that is not ECMA-262", "^]$"],
    ["an unterminated group", "(a"],
    ["a Script_Extensions property (RE2 has no such table)", "^\\p{Script_Extensions=Greek}$"],
    ["a repeat count above RE2's limit", "^a{2000}$"],
  ])("refuses %s (UNSUPPORTED_PATTERN)", (_name, pattern) => {
    expect(() => compilePattern(pattern)).toThrow(UnsupportedPatternError);
    expect(patternProblem(pattern)).toEqual(expect.any(String));
    try {
      compilePattern(pattern);
    } catch (error) {
      expect(error).toMatchObject({
        code: "UNSUPPORTED_PATTERN",
        details: { reason: "unsupported-pattern", pattern },
      });
    }
  });

  it("gives distinct patterns distinct cache keys (ajv shares compiled patterns by key)", () => {
    const validators = new ValidatorSet();
    const schema: JsonSchema = {
      type: "object",
      properties: { a: { type: "string", pattern: "^a$" }, b: { type: "string", pattern: "^b$" } },
      patternProperties: { "^x-\\d+$": { type: "integer" } },
    };
    expect(validators.validate(schema, { a: "a", b: "b", "x-1": 1 })).toEqual([]);
    expect(validators.validate(schema, { a: "b" }).map((v) => v.keyword)).toEqual(["pattern"]);
    expect(validators.validate(schema, { "x-2": "no" }).map((v) => v.keyword)).toEqual(["type"]);
  });
});

function tool(input: JsonSchema, output: JsonSchema): ToolSpec {
  return {
    name: "t",
    namespace: "t",
    description: "",
    provider: "p",
    accessMode: "rest",
    remote: true,
    execution: { transport: "local", module: "x" },
    endpoints: [
      {
        name: "ep",
        description: "",
        effect: "read",
        parameters: [{ name: "q", location: "argument", required: true, schema: { type: "string" } }],
        inputSchema: input,
        outputSchema: output,
        fields: [],
        execution: { kind: "local", function: "f" },
      },
    ],
  };
}

function routerFor(input: JsonSchema, output: JsonSchema = {}, result: unknown = {}) {
  const registered = registerTool({ tool: tool(input, output), source: "t", sourceKind: "local", defs: {} });
  const router = SchemaRouter.fromRegistry(new Registry([registered]));
  let invoked = 0;
  router.bind("t", {
    invoke: async () => {
      invoked++;
      return result;
    },
  });
  const call = (q: string) => ({
    tool: "t",
    endpoint: "ep",
    arguments: { q },
    endpointFingerprint: registered.endpointFingerprints.get("ep")!,
    toolFingerprint: registered.fingerprint,
  });
  return { router, call, invoked: () => invoked };
}

const inputWith = (pattern: string): JsonSchema => ({
  type: "object",
  properties: { q: { type: "string", pattern } },
  required: ["q"],
  additionalProperties: false,
});

describe("remote patterns at the execution boundary", () => {
  it("refuses a ReDoS input quickly and within the run, as INPUT_SCHEMA_VIOLATION", async () => {
    const { router, call, invoked } = routerFor(inputWith("^(a+)+$"));
    await expect(
      router.call(call(`${"a".repeat(5_000)}!`), { budget: new ExecutionBudget({ maxWallClockMs: 60_000 }) }),
    ).rejects.toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
    await expect(router.call(call("aaaa"))).resolves.toMatchObject({ tool: "t" });
    expect(invoked()).toBe(1);
    await router.close();
  });

  it("fails closed on an input pattern RE2 cannot run (INPUT_SCHEMA_VIOLATION, unsupported-pattern)", async () => {
    const { router, call, invoked } = routerFor(inputWith("^(?!admin).*$"));
    await expect(router.call(call("user"))).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
      details: { route: "t.ep", reason: "unsupported-pattern", pattern: "^(?!admin).*$" },
    });
    expect(invoked()).toBe(0);
    await router.close();
  });

  it("fails closed on an output pattern RE2 cannot run (OUTPUT_SCHEMA_VIOLATION, unsupported-pattern)", async () => {
    const output: JsonSchema = { type: "object", properties: { id: { type: "string", pattern: "(x)\\1" } } };
    const { router, call, invoked } = routerFor(inputWith("^[a-z]+$"), output, { id: "xx" });
    await expect(router.call(call("ok"))).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
      details: { route: "t.ep", reason: "unsupported-pattern" },
    });
    expect(invoked()).toBe(1);
    await router.close();
  });
});

describe("compile-time compatibility reports (construct unsupported-pattern)", () => {
  const projects: TempProject[] = [];
  afterAll(() => {
    for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
  });

  it("reports every OpenAPI pattern RE2 cannot run at its pointer, and nothing for supported ones", async () => {
    const project = tempProject("review-patterns");
    projects.push(project);
    const path = join(project.dir, "openapi.json");
    const ok = (schema: unknown) => ({
      description: "ok",
      content: { "application/json": { schema } },
    });
    writeFileSync(
      path,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        components: {
          schemas: {
            // A component named like a data keyword is still a schema.
            default: { type: "object", patternProperties: { "^(?!x-)": { type: "string" }, "^x-": {} } },
          },
        },
        paths: {
          "/a/{id}": {
            get: {
              operationId: "a",
              parameters: [
                { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^(\\w)\\1$" } },
                {
                  name: "q",
                  in: "query",
                  schema: { type: "string", pattern: "^[a-z]+$" },
                  example: { pattern: "(?=x)" },
                },
              ],
              responses: {
                "200": ok({ $ref: "#/components/schemas/default" }),
                default: ok({
                  type: "object",
                  properties: { pattern: { type: "string", pattern: "(?<=a)b" } },
                }),
              },
            },
          },
        },
      }),
    );
    const result = await openapiAdapter.resolve(
      "api",
      { kind: "openapi", location: path },
      {
        cwd: project.dir,
        env: {},
        allowInsecureHttp: false,
      },
    );
    const reported = result.compatibility.filter((issue) => issue.construct === "unsupported-pattern");
    expect(reported.map((issue) => [issue.pointer, issue.level])).toEqual([
      ["/components/schemas/default/patternProperties/^(?!x-)", "unsupported"],
      ["/paths/~1a~1{id}/get/parameters/0/schema/pattern", "unsupported"],
      [
        "/paths/~1a~1{id}/get/responses/default/content/application~1json/schema/properties/pattern/pattern",
        "unsupported",
      ],
    ]);
    expect(reported[0]!.message).toContain("lookaround");
    expect(reported[1]!.message).toContain("backreference");
  });

  // A document whose text never says "pattern" is not walked for patterns (index.ts): a key spelled
  // with an escape must still be found.
  it.each([
    ["JSON, the key written with \\u escapes", "openapi.json", '"p\\u0061ttern": "(a)\\\\1"'],
    ["YAML, the key written with a \\x escape", "openapi.yaml", '"p\\x61ttern": "(a)\\\\1"'],
  ])("reports a pattern whose key is spelled with escapes (%s)", async (_name, file, member) => {
    const project = tempProject("escaped-patterns");
    projects.push(project);
    const schema = file.endsWith(".json") ? `{"type": "string", ${member}}` : `{type: string, ${member}}`;
    const text = file.endsWith(".json")
      ? `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": ${schema}}}}}}}}}`
      : `openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: a\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: ${schema}\n`;
    expect(text).not.toContain("pattern");
    writeFileSync(join(project.dir, file), text);
    const result = await openapiAdapter.resolve(
      "api",
      { kind: "openapi", location: join(project.dir, file) },
      { cwd: project.dir, env: {}, allowInsecureHttp: false },
    );
    expect(
      result.compatibility
        .filter((issue) => issue.construct === "unsupported-pattern")
        .map((issue) => issue.pointer),
    ).toEqual(["/paths/~1a/get/responses/200/content/application~1json/schema/pattern"]);
  });

  it("reports MCP input and output schema patterns RE2 cannot run", () => {
    const tools = [
      {
        name: "find",
        inputSchema: { type: "object", properties: { id: { type: "string", pattern: "^(?!admin)" } } },
        outputSchema: { type: "object", properties: { ok: { type: "string", pattern: "^ok$" } } },
      },
      { name: "other", inputSchema: { type: "object", patternProperties: { "(a)\\1": {} } } },
    ];
    const result = buildMcpSource(
      "s",
      { kind: "mcp", stdio: { command: "srv" } },
      tools as unknown as ListedTool[],
      {
        execution: { transport: "mcp", server: "stdio", identity: "srv" },
        server: { name: "srv", version: "1" },
      },
    );
    expect(
      result.compatibility
        .filter((issue) => issue.construct === "unsupported-pattern")
        .map((issue) => [issue.pointer, issue.level]),
    ).toEqual([
      ["/tools/find/inputSchema/properties/id/pattern", "unsupported"],
      ["/tools/other/inputSchema/patternProperties/(a)\\1", "unsupported"],
    ]);
  });
});

describe("the translation against ECMA-262 itself (generated patterns)", () => {
  // Code points where ECMA-262 and RE2 defaults differ: white space outside ASCII, line terminators,
  // the ASCII word and digit edges, and an astral character.
  const ALPHABET = [
    "a",
    "Z",
    "0",
    "9",
    "_",
    "-",
    " ",
    "\t",
    "\n",
    "\r",
    "\u00a0",
    "\u2028",
    "\u3000",
    "\uFEFF",
    "é",
    "😀",
  ];
  const escapes = ["\\s", "\\S", "\\d", "\\D", "\\w", "\\W"];
  const literal = fc.constantFrom("a", "Z", "0", "_", "-", "\\u00a0", "\\n", "é");
  const atom = fc.letrec<{ atom: string; sequence: string }>((tie) => ({
    atom: fc.oneof(
      { depthSize: "small" },
      literal,
      fc.constantFrom(".", ...escapes),
      fc
        .tuple(
          fc.boolean(),
          fc.array(fc.oneof(literal, fc.constantFrom(...escapes), fc.constant("a-z")), {
            minLength: 1,
            maxLength: 3,
          }),
        )
        .map(([negate, items]) => `[${negate ? "^" : ""}${items.join("")}]`),
      tie("sequence").map((inner) => `(?:${inner})`),
      tie("sequence").map((inner) => `(${inner}|${"x"})`),
    ),
    sequence: fc
      .array(
        fc.tuple(tie("atom"), fc.constantFrom("", "", "*", "+", "?", "{1,2}", "*?")).map(([a, q]) => a + q),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => parts.join("")),
  }));
  const pattern = fc
    .tuple(fc.boolean(), atom.sequence, fc.boolean())
    .map(([start, body, end]) => `${start ? "^" : ""}${body}${end ? "$" : ""}`)
    // Only valid u-mode patterns (e.g. `[\\s-a]` is a syntax error there).
    .filter((source) => {
      try {
        new RegExp(source, "u");
        return true;
      } catch {
        return false;
      }
    });
  const input = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 6 }).map((chars) => chars.join(""));

  it("matches exactly what new RegExp(pattern, 'u') matches", () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (source, inputs) => {
        const compiled = compilePattern(source);
        const native = new RegExp(source, "u");
        for (const text of inputs)
          expect([source, text, compiled.test(text)]).toEqual([source, text, native.test(text)]);
      }),
      { numRuns: 1500 },
    );
  });
});
