/**
 * Attacks on the generated bindings (docs/reference/formats.md, "Bindings"): a hostile document puts
 * code-shaped text in every string the emitters copy into TypeScript — descriptions (`*\/` ends a
 * comment), property names and enum values (quotes, backticks, `${`, line separators), parameter
 * names and operation IDs. The generated modules must import without running any of it and
 * type-check.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { tempProject } from "../helpers/project.js";

const RUN = "globalThis.__schemarouterPwned = 1;";
const HOSTILE = [
  `*/ ${RUN} /*`,
  `"]: 1 }; ${RUN} //`,
  `\`; ${RUN} \``,
  `\${(() => { ${RUN} })()}`,
  `a\u2028${RUN}\u2029b`,
  `</script>\r\n${RUN}\r//`,
];

function hostileDocument(): unknown {
  const properties: Record<string, unknown> = {};
  HOSTILE.forEach((text, index) => {
    properties[text] = { type: "string", description: text, enum: [text, `v${index}`] };
  });
  return {
    openapi: "3.1.0",
    info: { title: HOSTILE[0], version: "1", description: HOSTILE.join("\n") },
    servers: [{ url: "https://bindings.example.test" }],
    paths: {
      "/items": {
        get: {
          operationId: `list*/${RUN}/*Items`,
          summary: HOSTILE[0],
          description: HOSTILE.join("\n"),
          parameters: HOSTILE.map((name) => ({
            name,
            in: "query",
            description: name,
            schema: { type: "string" },
          })),
          responses: {
            "200": {
              description: HOSTILE[0],
              content: {
                "application/json": {
                  schema: { type: "object", description: HOSTILE[1], properties, "x-unit": HOSTILE[0] },
                },
              },
            },
          },
        },
      },
    },
  };
}

/** The identifiers of a module's code: comments skipped, every string or template literal one token. */
function codeIdentifiers(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.Identifier) out.push(scanner.getTokenText());
    if (token === ts.SyntaxKind.TemplateHead) out.push("(template with substitutions)");
  }
  return out;
}

describe("attacks on the generated bindings", () => {
  it("hostile strings in a document never become code in the generated modules", async () => {
    const project = tempProject("attacks-bindings");
    writeFileSync(join(project.dir, "hostile.json"), JSON.stringify(hostileDocument()));
    project.write({ sources: { hostile: { kind: "openapi", location: "hostile.json" } } });
    await compile({ config: project.configPath });
    const modules = readdirSync(project.outDir).filter((name) => name.endsWith(".ts"));
    expect(modules.length).toBeGreaterThan(0);
    for (const name of modules) {
      const text = readFileSync(join(project.outDir, name), "utf8");
      // Every module parses as written (a broken-out comment or literal would not) ...
      // (A declaration module is parsed as the plain module it is a subset of.)
      const fileName = name.replace(/\.d\.ts$/, ".decl.ts");
      const { diagnostics } = ts.transpileModule(text, { reportDiagnostics: true, fileName });
      expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
      // ... and the document's text is only ever inside a comment or a string literal token.
      expect(codeIdentifiers(text)).not.toContain("__schemarouterPwned");
    }
    // And importing them runs nothing from the document.
    for (const name of modules.filter((module) => !module.endsWith(".d.ts"))) {
      await import(pathToFileURL(join(project.outDir, name)).href);
    }
    expect((globalThis as Record<string, unknown>).__schemarouterPwned).toBeUndefined();
  }, 60_000);
});
