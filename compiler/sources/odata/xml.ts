/**
 * Bounded, hostile-input-safe parsing of a CSDL XML document (docs/sources/odata.md, "Reading CSDL"):
 * a size limit, no DTD at all (so no external entities and no entity expansion), a nesting limit and
 * an attribute-size limit, then fast-xml-parser with entity processing off. The result is a plain
 * element tree: name (namespace prefix removed), attributes, children in document order.
 */
import { XMLParser } from "fast-xml-parser";
import { SourceError } from "../../errors/errors.js";

export interface XmlLimits {
  /** Bytes of the whole document. */
  readonly maxBytes: number;
  /** Element nesting (a CSDL document nests about 10 deep). */
  readonly maxDepth: number;
  /** Characters of one attribute value. */
  readonly maxAttributeLength: number;
  /** Elements in the whole document. */
  readonly maxElements: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: 16 * 1024 * 1024,
  maxDepth: 64,
  maxAttributeLength: 64 * 1024,
  maxElements: 500_000,
};

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
}

const ATTRIBUTES = ":@";
const TEXT = "#text";

/** The five predefined XML entities and character references; nothing else is ever expanded. */
export function decodeXmlText(value: string): string {
  return value.replace(/&(lt|gt|amp|apos|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g, (whole, name: string) => {
    switch (name) {
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "amp":
        return "&";
      case "apos":
        return "'";
      case "quot":
        return '"';
    }
    const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}

/** Parses the document text, refusing anything unsafe with a typed SourceError before parsing it. */
export function parseCsdlXml(
  source: string,
  bytes: Uint8Array,
  limits: XmlLimits = DEFAULT_XML_LIMITS,
): XmlElement {
  if (bytes.byteLength > limits.maxBytes) {
    throw new SourceError(
      source,
      "SOURCE_TOO_LARGE",
      `the CSDL document is ${bytes.byteLength} bytes, more than the ${limits.maxBytes}-byte limit.`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      "the CSDL document is not UTF-8.",
      {},
      { cause: error },
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A DTD is where entity declarations (internal expansion bombs, external SYSTEM entities) live;
  // CSDL never needs one, so any document type declaration is refused outright.
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new SourceError(
      source,
      "CSDL_UNSAFE",
      "the CSDL document has a document type declaration (<!DOCTYPE or <!ENTITY); DTDs and entity declarations are refused (no entity expansion, no external entities). Serve plain CSDL.",
      { reason: "dtd" },
    );
  }
  checkShape(source, text, limits);
  let parsed: unknown;
  try {
    parsed = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: "",
      removeNSPrefix: true,
      processEntities: false,
      htmlEntities: false,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      ignoreDeclaration: true,
      ignorePiTags: true,
      maxNestedTags: limits.maxDepth,
    }).parse(text, true);
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `the CSDL document is not well-formed XML (${(error as Error).message.slice(0, 200)}).`,
      {},
      { cause: error },
    );
  }
  const roots = toElements(parsed);
  const root = roots[0];
  if (roots.length !== 1 || root === undefined) {
    throw new SourceError(source, "SOURCE_PARSE_FAILED", "the CSDL document has no single root element.");
  }
  return root;
}

/**
 * One linear pass over the markup: element nesting, element count and attribute value lengths are
 * checked before the parser builds anything (comments, CDATA and processing instructions skipped).
 */
function checkShape(source: string, text: string, limits: XmlLimits): void {
  let depth = 0;
  let elements = 0;
  let i = 0;
  const refuse = (reason: "depth" | "attribute-size" | "elements", message: string): never => {
    throw new SourceError(source, "CSDL_UNSAFE", message, { reason });
  };
  while (i < text.length) {
    const open = text.indexOf("<", i);
    if (open < 0) break;
    const next = text[open + 1];
    if (text.startsWith("<!--", open)) {
      const end = text.indexOf("-->", open + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    if (text.startsWith("<![CDATA[", open)) {
      const end = text.indexOf("]]>", open + 9);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    if (next === "?" || next === "!") {
      const end = text.indexOf(">", open + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    // Scan the tag to its closing ">", skipping quoted attribute values (which may contain ">").
    let j = open + 1;
    let selfClosing = false;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === '"' || c === "'") {
        const end = text.indexOf(c, j + 1);
        const stop = end < 0 ? text.length : end;
        if (stop - j - 1 > limits.maxAttributeLength)
          refuse(
            "attribute-size",
            `the CSDL document has an attribute value of ${stop - j - 1} characters, more than the ${limits.maxAttributeLength}-character limit.`,
          );
        j = stop;
        continue;
      }
      if (c === ">") {
        selfClosing = text[j - 1] === "/";
        break;
      }
    }
    if (next === "/") depth--;
    else {
      elements++;
      if (elements > limits.maxElements)
        refuse("elements", `the CSDL document has more than ${limits.maxElements} elements.`);
      if (!selfClosing) {
        depth++;
        if (depth > limits.maxDepth)
          refuse(
            "depth",
            `the CSDL document nests elements deeper than ${limits.maxDepth} levels; schemarouter refuses such documents.`,
          );
      }
    }
    i = j + 1;
  }
}

/** fast-xml-parser's ordered output → element tree (text nodes dropped: CSDL carries data in attributes). */
function toElements(nodes: unknown): XmlElement[] {
  const out: XmlElement[] = [];
  const pending: { nodes: unknown; into: XmlElement[] }[] = [{ nodes, into: out }];
  while (pending.length > 0) {
    const { nodes: list, into } = pending.pop()!;
    if (!Array.isArray(list)) continue;
    for (const node of list) {
      if (node === null || typeof node !== "object") continue;
      const record = node as Record<string, unknown>;
      const name = Object.keys(record).find((key) => key !== ATTRIBUTES && key !== TEXT);
      if (name === undefined) continue;
      const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
      const raw = record[ATTRIBUTES];
      if (raw !== null && typeof raw === "object")
        for (const [key, value] of Object.entries(raw as Record<string, unknown>))
          if (typeof value === "string") attributes[key] = decodeXmlText(value);
      const children: XmlElement[] = [];
      into.push({ name, attributes, children });
      pending.push({ nodes: record[name], into: children });
    }
  }
  return out;
}
