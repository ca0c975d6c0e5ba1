/**
 * The visible text of an HTML documentation page (docs/sources/proposals.md, "What the proposer sees"):
 * parsed with parse5 (the WHATWG parsing algorithm), with script, style, template, noscript and hidden
 * content removed, normalised to Unicode NFC, one line per block, whitespace collapsed. Every character
 * keeps the HTML source line and column it came from, so a grounded quote can say where it is.
 */
import { type DefaultTreeAdapterMap, parse } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** Elements whose content is never text a reader sees. */
const INVISIBLE = new Set([
  "script",
  "style",
  "template",
  "noscript",
  "head",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "canvas",
  "select",
  "textarea",
]);

/** Elements that start a new line of visible text. */
const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface VisibleText {
  /** Lines of visible text joined by `\n`; NFC; inner whitespace collapsed to one space. */
  readonly text: string;
  /** The `<title>`, when the page has one (NFC, collapsed). */
  readonly title: string;
  /** Where the character at a text offset came from in the HTML source. */
  positionAt(offset: number): SourcePosition;
}

/** Whether an element is hidden from a reader by its own attributes (docs/sources/proposals.md). */
export function isHidden(element: Element): boolean {
  for (const { name, value } of element.attrs) {
    if (name === "hidden") return true;
    if (name === "aria-hidden" && value.trim().toLowerCase() === "true") return true;
    if (name === "type" && element.tagName === "input") return true;
    if (name === "style" && /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(value))
      return true;
  }
  return false;
}

interface Piece {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

export function visibleText(html: string): VisibleText {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const pieces: (Piece | "break")[] = [];
  const walk = (node: Node): void => {
    if (node.nodeName === "#text") {
      const location = (node as DefaultTreeAdapterMap["textNode"]).sourceCodeLocation;
      pieces.push({
        text: (node as DefaultTreeAdapterMap["textNode"]).value,
        line: location?.startLine ?? 0,
        column: location?.startCol ?? 0,
      });
      return;
    }
    if (!("childNodes" in node)) return;
    if ("tagName" in node) {
      const element = node as Element;
      if (INVISIBLE.has(element.tagName) || isHidden(element)) return;
    }
    const block = "tagName" in node && BLOCKS.has((node as Element).tagName);
    if (block) pieces.push("break");
    for (const child of node.childNodes) walk(child);
    if (block) pieces.push("break");
  };
  walk(document);
  return assemble(pieces, titleOf(document));
}

/** The first `<title>` element's text, wherever the parser put it. */
function titleOf(node: Node): string {
  if ("tagName" in node && (node as Element).tagName === "title")
    return collapse(
      (node as Element).childNodes
        .map((child) =>
          child.nodeName === "#text" ? (child as DefaultTreeAdapterMap["textNode"]).value : "",
        )
        .join(""),
    );
  if (!("childNodes" in node)) return "";
  for (const child of node.childNodes) {
    const found = titleOf(child);
    if (found !== "") return found;
  }
  return "";
}

function collapse(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").trim();
}

/** Joins pieces into lines, collapsing whitespace, and keeps a source position per output character. */
function assemble(pieces: readonly (Piece | "break")[], title: string): VisibleText {
  let text = "";
  const lines: number[] = [];
  const columns: number[] = [];
  let pendingSpace: SourcePosition | undefined;
  let pendingBreak = false;
  const emit = (char: string, position: SourcePosition) => {
    text += char;
    // One entry per UTF-16 unit, so offsets into `text` index these arrays.
    for (let unit = 0; unit < char.length; unit++) {
      lines.push(position.line);
      columns.push(position.column);
    }
  };
  for (const piece of pieces) {
    if (piece === "break") {
      if (text !== "") pendingBreak = true;
      pendingSpace = undefined;
      continue;
    }
    // NFC per text node: a quote cannot join characters of two separate nodes into one.
    const normalised = piece.text.normalize("NFC");
    let line = piece.line;
    let column = piece.column;
    for (const char of normalised) {
      const position = { line, column };
      if (char === "\n") {
        line += 1;
        column = 1;
      } else column += char.length;
      if (/\s/.test(char)) {
        if (text !== "" && !pendingBreak) pendingSpace ??= position;
        continue;
      }
      if (pendingBreak) {
        emit("\n", position);
        pendingBreak = false;
        pendingSpace = undefined;
      } else if (pendingSpace !== undefined) {
        emit(" ", pendingSpace);
        pendingSpace = undefined;
      }
      emit(char, position);
    }
  }
  return {
    text,
    title,
    positionAt(offset) {
      return { line: lines[offset] ?? 0, column: columns[offset] ?? 0 };
    },
  };
}
