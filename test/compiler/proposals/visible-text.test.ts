/**
 * The visible text a proposer sees (docs/sources/proposals.md, "What the proposer sees"), over a page a
 * real server library renders (@sap/cds's generated welcome page, test/fixtures/proposals/cap-welcome/)
 * and over hidden-content cases.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { visibleText } from "../../../compiler/proposals/visible-text.js";
import { REPO_ROOT } from "../../helpers/project.js";

const cap = readFileSync(join(REPO_ROOT, "test/fixtures/proposals/cap-welcome.html"), "utf8");

describe("visible text", () => {
  it("keeps what a reader of the @sap/cds welcome page sees: no CSS, no attribute values, one line per block", () => {
    const page = visibleText(cap);
    expect(page.title).toBe("bookshop 1.0.0");
    expect(page.text.split("\n")).toEqual([
      "Welcome to @sap/cds Server",
      "Serving bookshop 1.0.0",
      "These are the paths currently served:",
      "Web Applications:",
      "— none —",
      "Service Endpoints:",
      "/odata/v4/catalog/ $metadata",
      "Books",
      "Authors",
      "countBooks (author)",
      "This is an automatically generated page.",
      "You can replace it with a custom ./app/index.html.",
    ]);
    // The page's <style> block and its href attributes are not text.
    expect(cap).toContain("font-family");
    expect(page.text).not.toContain("font-family");
    expect(cap).toContain('href="/odata/v4/catalog/Books"');
    expect(page.text).not.toContain("/odata/v4/catalog/Books");
  });

  it("says where in the HTML source a character came from", () => {
    const page = visibleText(cap);
    const offset = page.text.indexOf("countBooks (author)");
    const { line, column } = page.positionAt(offset);
    expect(cap.split("\n")[line - 1]!.slice(column - 1)).toMatch(/^countBooks \(author\)/);
  });

  it.each([
    ["script", "<script>GET /secret</script>"],
    ["style", "<style>GET /secret</style>"],
    ["template", "<template><p>GET /secret</p></template>"],
    ["noscript", "<noscript>GET /secret</noscript>"],
    ["hidden attribute", "<div hidden>GET /secret</div>"],
    ["aria-hidden", '<span aria-hidden="true">GET /secret</span>'],
    ["display:none", '<p style="color: red; display: none">GET /secret</p>'],
    ["visibility:hidden", '<p style="visibility:hidden">GET /secret</p>'],
    ["hidden input", '<input type="hidden" value="GET /secret">'],
    ["comment", "<!-- GET /secret -->"],
  ])("drops %s content", (_name, hidden) => {
    const page = visibleText(`<html><body><p>GET /books</p>${hidden}<p>end</p></body></html>`);
    expect(page.text).toBe("GET /books\nend");
  });

  it("normalises to NFC and collapses whitespace inside a block", () => {
    const page = visibleText("<p>Caf\u0065\u0301   au\n\tlait</p>");
    expect(page.text).toBe("Caf\u00e9 au lait");
  });
});
