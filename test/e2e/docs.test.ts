/**
 * The documentation stays true to the repository (docs/development.md): every relative link in
 * README.md and docs/ points at an existing file, and at an existing heading when it names an anchor;
 * the README links every docs page; and every `npm run <script>` a page mentions is a script of the
 * root package.json.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/project.js";

/**
 * Generated from the error-code table by its own script and test; until that page exists, links to it
 * are the one thing the link check does not require to resolve.
 */
const ERROR_CODES_PAGE = join(REPO_ROOT, "docs/reference/error-codes.md");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : path.endsWith(".md") ? [path] : [];
  });
}

const DOCS = markdownFiles(join(REPO_ROOT, "docs")).sort();
const PAGES = [join(REPO_ROOT, "README.md"), ...DOCS];
const text = new Map(PAGES.map((page) => [page, readFileSync(page, "utf8")]));

/** The page without fenced code blocks (links and headings inside them are not links and headings). */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
}

interface Link {
  readonly from: string;
  readonly target: string;
}

function linksOf(page: string): Link[] {
  const body = prose(text.get(page)!).replace(/`[^`\n]*`/g, "code");
  return [...body.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
    from: page,
    target: match[1]!,
  }));
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(readFileSync(page, "utf8")).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const heading = match[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .trim()
      .toLowerCase();
    const base = heading.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function resolveLink(link: Link): { readonly file: string; readonly anchor: string | undefined } {
  const [path, anchor] = link.target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? link.from : resolve(dirname(link.from), decodeURIComponent(path));
  return { file, anchor: anchor === undefined || anchor === "" ? undefined : decodeURIComponent(anchor) };
}

const where = (link: Link) => `${relative(REPO_ROOT, link.from)} → ${link.target}`;

const SOURCE_FOLDERS = ["compiler", "runtime", "templates", "test", "bench", "scripts", "examples"];
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "generated", ".build", "tmp", "results"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED_FOLDERS.has(name) ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The numbers of the execution-boundary steps and of the trust rules, as the pages define them. */
function citable(): { readonly steps: readonly number[]; readonly rules: ReadonlySet<number> } {
  const boundary = prose(readFileSync(join(REPO_ROOT, "docs/runtime/execution-boundary.md"), "utf8"));
  const order = boundary.slice(boundary.indexOf("## Order of checks"));
  const steps = [...order.slice(0, order.indexOf("\n## ", 3)).matchAll(/^(\d+)\. /gm)].map((m) =>
    Number(m[1]),
  );
  const trust = prose(readFileSync(join(REPO_ROOT, "docs/trust-model.md"), "utf8"));
  const rules = new Set([...trust.matchAll(/^### (\d+)\. /gm)].map((match) => Number(match[1])));
  return { steps, rules };
}

describe("documentation", () => {
  it("keeps the page paths that source comments and other pages cite", () => {
    const cited = [
      "README.md",
      "getting-started.md",
      "sources/openapi.md",
      "sources/mcp.md",
      "sources/optimade.md",
      "sources/local.md",
      "runtime/loading-and-verification.md",
      "runtime/execution-boundary.md",
      "runtime/transports.md",
      "runtime/governed-execution.md",
      "runtime/retrieval-and-planning.md",
      "runtime/field-projection.md",
      "runtime/traces.md",
      "runtime/bindings.md",
      "drift-review.md",
      "trust-model.md",
      "serve.md",
      "reference/cli.md",
      "reference/config.md",
      "reference/formats.md",
      "reference/exports.md",
      "benchmarks.md",
      "development.md",
    ];
    expect(cited.filter((page) => !existsSync(join(REPO_ROOT, "docs", page)))).toEqual([]);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const link of linksOf(page).filter((candidate) => isRelative(candidate.target))) {
        const { file, anchor } = resolveLink(link);
        if (file === ERROR_CODES_PAGE && !existsSync(file)) continue;
        checked++;
        if (!existsSync(file)) broken.push(`${where(link)} (no such file)`);
        else if (anchor !== undefined) {
          if (!file.endsWith(".md"))
            broken.push(`${where(link)} (an anchor into a file that is not Markdown)`);
          else if (!anchorsOf(file).has(anchor)) broken.push(`${where(link)} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("the README links every docs page, the error-code reference included", () => {
    const readme = join(REPO_ROOT, "README.md");
    const linked = new Set(linksOf(readme).map((link) => resolveLink(link).file));
    const pages = [...new Set([...DOCS, ERROR_CODES_PAGE])];
    expect(pages.filter((page) => !linked.has(page)).map((page) => relative(REPO_ROOT, page))).toEqual([]);
  });

  it("is what source comments cite: existing pages, boundary steps and trust rules", () => {
    const { steps, rules } = citable();
    expect(steps).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect([...rules]).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    const wrong: string[] = [];
    for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(REPO_ROOT, folder)))) {
      const source = readFileSync(file, "utf8");
      const at = relative(REPO_ROOT, file);
      for (const [page] of source.matchAll(/\bdocs\/[\w/.-]+\.md\b/g)) {
        const path = join(REPO_ROOT, page);
        if (!existsSync(path) && path !== ERROR_CODES_PAGE) wrong.push(`${at}: ${page}`);
      }
      for (const match of source.matchAll(/execution-boundary\.md\)? steps? (\d+)(?:[–-](\d+))?/g)) {
        if (match.slice(1).some((n) => n !== undefined && (Number(n) < 1 || Number(n) > steps.length)))
          wrong.push(`${at}: ${match[0]}`);
      }
      for (const match of source.matchAll(/trust-model\.md((?: (?:and )?§\d+,?)+)/g)) {
        for (const [, n] of match[1]!.matchAll(/§(\d+)/g))
          if (!rules.has(Number(n))) wrong.push(`${at}: §${n}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("mentions only npm scripts that exist", () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const unknown: string[] = [];
    for (const page of PAGES) {
      for (const match of text
        .get(page)!
        .matchAll(/\bnpm (?:run(?:-script)?|test)\b(?:[ \t]+([\w:.-]+))?/g)) {
        // "npm run" on its own (prose about scripts in general) names no script.
        const script = match[0].startsWith("npm test") ? "test" : match[1];
        if (script !== undefined && !Object.hasOwn(scripts, script))
          unknown.push(`${relative(REPO_ROOT, page)}: ${match[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
