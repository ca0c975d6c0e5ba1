/**
 * External `$ref`s, when a source's local config enables them (docs/sources/openapi-external-refs.md):
 * every document they name is read through a DocumentScope (files in the root document's directory
 * tree, or URLs on its origin) within the source's limits, and bundled into the root document, so the
 * rest of the adapter sees one self-contained document. Each referenced object is stored once under
 * `x-schemarouter-external/<stable name>` and every `$ref` to it is rewritten to point there; schemas
 * stored there become `$defs` of the same name. A reference that may not be followed is rewritten to
 * a marker the SchemaConverter reports where it is used (the operation is left out): refused, never
 * guessed.
 *
 * json-schema-ref-parser's resolver hooks are not used for this: the library reads documents in
 * parallel (limits would trip in no fixed order), fails the whole resolution on one refused read, and
 * bundles to first-use locations rather than stable names. It still resolves the bundled document.
 */
import { decodePointerToken, digestJson, isUrl } from "schemarouter/internal";
import { type ExternalRefsConfig, externalRefLimits } from "../../config/external-refs.js";
import { SourceError } from "../../errors/errors.js";
import { DATA_KEYS, MAP_KEYS } from "../patterns.js";
import type { LoadedDocument } from "./document.js";
import { externalDefNames } from "./external-names.js";
import { evaluatePointer, fragmentTokens, pointerOf } from "./external-pointer.js";
import { ExternalDocumentReader } from "./external-reader.js";
import { type DocumentScope, fileScope, type UrlScopeOptions, urlScope } from "./external-scope.js";

type Node = Record<string, unknown>;

/** Top-level member of the bundled document holding every externally referenced object. */
export const EXTERNAL_DEFS_KEY = "x-schemarouter-external";
const REFUSED_PREFIX = "#/x-schemarouter-refused/";

export interface RefusedRef {
  readonly construct: "external-ref" | "unresolved-ref";
  readonly message: string;
}

export interface BundledRefs {
  /** Marker `$ref` → the refused reference it replaced (reported where it is used). */
  readonly refusals: ReadonlyMap<string, RefusedRef>;
  /** The root document's digest when nothing else was read; otherwise one over every document read. */
  readonly documentDigest: string;
  /** Keys of the documents read besides the root, sorted. */
  readonly documents: readonly string[];
  /**
   * A report pointer into the bundled document as the place it came from: pointers below
   * `/x-schemarouter-external/<name>` become `<document key>#<pointer in that document>`.
   */
  locate(pointer: string): string;
}

interface Document {
  readonly id: string;
  readonly key: string;
  readonly value: unknown;
  readonly depth: number;
  readonly digest: string;
}

interface Stored {
  readonly fullKey: string;
  readonly key: string;
  readonly tokens: readonly string[];
  readonly value: unknown;
}

/** Bundles the external references of `loaded.doc` into it, in place. */
export async function bundleExternalRefs(
  source: string,
  loaded: LoadedDocument,
  config: ExternalRefsConfig,
  fetch: UrlScopeOptions,
): Promise<BundledRefs> {
  const doc = loaded.doc;
  if (Object.hasOwn(doc, EXTERNAL_DEFS_KEY))
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the document has a top-level "${EXTERNAL_DEFS_KEY}" member, which schemarouter reserves for bundled external $refs; rename it.`,
    );
  const scope = isUrl(loaded.base) ? urlScope(source, loaded.base, fetch) : fileScope(source, loaded.base);
  const bundler = new Bundler(scope, new ExternalDocumentReader(source, scope, externalRefLimits(config)), {
    id: scope.rootId,
    key: "",
    value: doc,
    depth: 0,
    digest: loaded.documentDigest,
  });
  await bundler.run();
  const read = bundler.externalDocuments();
  return {
    refusals: bundler.refusals,
    documentDigest:
      read.length === 0
        ? loaded.documentDigest
        : digestJson({
            root: loaded.documentDigest,
            documents: Object.fromEntries(read.map((document) => [document.key, document.digest])),
          }),
    documents: read.map((document) => document.key),
    locate: (pointer) => bundler.locate(pointer),
  };
}

class Bundler {
  readonly refusals = new Map<string, RefusedRef>();
  private readonly documents = new Map<string, Document>();
  private readonly stored = new Map<string, Stored>();
  /** Stable name → what is stored under it. */
  private readonly named = new Map<string, Stored>();
  private readonly rewrites: [Node, string][] = [];
  private readonly seen = new Set<object>();
  /** Objects to walk, by the depth of the document they are in (so depth counts the shortest chain). */
  private readonly work: { doc: Document; node: unknown }[][];

  constructor(
    private readonly scope: DocumentScope,
    private readonly reader: ExternalDocumentReader,
    private readonly root: Document,
  ) {
    this.documents.set(root.id, root);
    this.work = [[{ doc: root, node: root.value }]];
  }

  async run(): Promise<void> {
    for (let depth = 0; depth < this.work.length; depth++) {
      const bucket = this.work[depth] ?? [];
      for (let i = 0; i < bucket.length; i++) {
        const { doc, node } = bucket[i]!;
        for (const holder of this.references(node)) await this.follow(holder, doc, depth);
      }
    }
    this.store();
  }

  externalDocuments(): Document[] {
    return [...this.documents.values()]
      .filter((document) => document !== this.root)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Objects with a string `$ref` under `node`, in document order; instance data and x- members skipped. */
  private references(node: unknown): Node[] {
    const found: Node[] = [];
    const stack: [unknown, boolean][] = [[node, false]];
    while (stack.length > 0) {
      const [value, map] = stack.pop()!;
      if (value === null || typeof value !== "object" || this.seen.has(value)) continue;
      this.seen.add(value);
      const children: [unknown, boolean][] = [];
      if (Array.isArray(value)) {
        for (const item of value) children.push([item, false]);
      } else {
        const record = value as Node;
        if (!map && typeof record.$ref === "string") found.push(record);
        for (const [key, child] of Object.entries(record)) {
          if (!map && (DATA_KEYS.has(key) || key.startsWith("x-"))) continue;
          children.push([child, !map && MAP_KEYS.has(key)]);
        }
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
    return found;
  }

  private async follow(holder: Node, from: Document, depth: number): Promise<void> {
    const ref = holder.$ref as string;
    if (from === this.root && ref.startsWith("#")) return;
    const where = from === this.root ? "" : ` (in ${from.key})`;
    let url: URL;
    try {
      url = new URL(ref, from.id);
    } catch {
      return this.refuse(
        holder,
        "external-ref",
        `external reference ${quote(ref)}${where} is not a valid URI reference`,
      );
    }
    const hashAt = ref.indexOf("#");
    const fragment = hashAt < 0 ? "" : ref.slice(hashAt + 1);
    if (fragment !== "" && !fragment.startsWith("/"))
      return this.refuse(
        holder,
        "external-ref",
        `reference ${quote(ref)}${where} names a plain-name anchor, which is not resolved (only JSON pointers are)`,
      );
    url.hash = "";
    if (url.href === this.scope.rootId) {
      holder.$ref = `#${fragment}`;
      return;
    }
    let target = this.documents.get(url.href);
    if (target === undefined) {
      const decision = this.scope.check(url);
      if ("refused" in decision)
        return this.refuse(
          holder,
          "external-ref",
          `external reference ${quote(ref)}${where} is refused: ${decision.refused}`,
        );
      if (decision.id === this.scope.rootId) {
        holder.$ref = `#${fragment}`;
        return;
      }
      target = this.documents.get(decision.id);
      if (target === undefined) {
        const read = await this.reader.read(decision.id, decision.key, from.depth + 1);
        if ("refused" in read)
          return this.refuse(
            holder,
            "external-ref",
            `external reference ${quote(ref)}${where} is refused: ${read.refused}`,
          );
        target = {
          id: decision.id,
          key: decision.key,
          depth: from.depth + 1,
          value: read.value,
          digest: read.digest,
        };
        this.documents.set(target.id, target);
      }
    }
    const tokens = fragmentTokens(fragment);
    const fullKey = `${target.key}#${pointerOf(tokens)}`;
    if (!this.stored.has(fullKey)) {
      const value = evaluatePointer(target.value, tokens);
      if (value === undefined)
        return this.refuse(
          holder,
          "unresolved-ref",
          `external reference ${quote(ref)}${where} does not resolve in ${target.key}`,
        );
      this.stored.set(fullKey, { fullKey, key: target.key, tokens, value });
      const bucket = Math.max(depth, target.depth);
      if (this.work[bucket] === undefined) this.work[bucket] = [];
      this.work[bucket].push({ doc: target, node: value });
    }
    this.rewrites.push([holder, fullKey]);
  }

  locate(pointer: string): string {
    const prefix = `/${EXTERNAL_DEFS_KEY}/`;
    if (!pointer.startsWith(prefix)) return pointer;
    const rest = pointer.slice(prefix.length);
    const slash = rest.indexOf("/");
    const stored = this.named.get(decodePointerToken(slash < 0 ? rest : rest.slice(0, slash)));
    if (stored === undefined) return pointer;
    return `${stored.key}#${pointerOf(stored.tokens)}${slash < 0 ? "" : rest.slice(slash)}`;
  }

  private refuse(holder: Node, construct: RefusedRef["construct"], message: string): void {
    const marker = `${REFUSED_PREFIX}${this.refusals.size}`;
    this.refusals.set(marker, { construct, message });
    holder.$ref = marker;
  }

  /** Names every stored object, rewrites the references to it, and adds them to the root document. */
  private store(): void {
    if (this.stored.size === 0) return;
    const components = (this.root.value as Node).components as Node | undefined;
    const schemas = components?.schemas;
    // Names the root's component schemas hold, and names no plain object may safely be keyed by.
    const reserved = new Set([
      ...(schemas !== null && typeof schemas === "object" ? Object.keys(schemas) : []),
      ...Object.getOwnPropertyNames(Object.prototype),
    ]);
    const names = externalDefNames([...this.stored.values()], reserved);
    for (const [holder, fullKey] of this.rewrites)
      holder.$ref = `#/${EXTERNAL_DEFS_KEY}/${names.get(fullKey)!}`;
    for (const stored of this.stored.values()) this.named.set(names.get(stored.fullKey)!, stored);
    const entries = [...this.stored.values()]
      .map((stored) => [names.get(stored.fullKey)!, stored.value] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    (this.root.value as Node)[EXTERNAL_DEFS_KEY] = Object.fromEntries(entries);
  }
}

/** A document-supplied reference as quoted, bounded text for reports. */
function quote(ref: string): string {
  return JSON.stringify(ref.length > 200 ? `${ref.slice(0, 200)}…` : ref);
}
