/**
 * Which documents an external `$ref` may name, and reading them (docs/sources/openapi-external-refs.md).
 * A root document read from a file may name files inside its own directory tree only: `..` is
 * resolved before the check, symbolic links when the file is read, and a file outside is never read.
 * A root document fetched from a URL may name URLs on its own origin only, fetched with the same
 * bounded fetch and the same schema-fetch headers (which therefore never reach another origin).
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SourceError } from "../../errors/errors.js";
import { fetchDocument } from "../fetch.js";

/** Whether a document may be read: a refusal (reported, never read), or its identity and key. */
export type ScopeDecision =
  | { readonly refused: string }
  | {
      /** The document's URL without fragment: references to the same document share it. */
      readonly id: string;
      /** Its path relative to the root document's directory ("/"-separated), as written in reports. */
      readonly key: string;
    };

export interface ReadBudget {
  /** Bytes left under `externalRefs.maxBytes`. */
  readonly maxBytes: number;
  /** Aborted when `externalRefs.timeoutMs` is up. */
  readonly signal: AbortSignal;
}

/** Thrown when a read would exceed the byte budget; the reader names the limit. */
export class ByteBudgetExceeded extends Error {}

export interface DocumentScope {
  /** The root document's URL without fragment or query: references to it stay inside the document. */
  readonly rootId: string;
  /** Decides on the document `url` names (its fragment already removed). */
  check(url: URL): ScopeDecision;
  /** Reads a document `check` allowed: its bytes, or a refusal only reading can find (a link out). */
  read(id: string, key: string, budget: ReadBudget): Promise<Uint8Array | { readonly refused: string }>;
}

/** The scope of a root document read from the file at the absolute path `rootPath`. */
export function fileScope(source: string, rootPath: string): DocumentScope {
  const rootDir = dirname(rootPath);
  let realRoot: Promise<string> | undefined;
  return {
    rootId: pathToFileURL(rootPath).href,
    check(url) {
      if (url.protocol !== "file:")
        return {
          refused:
            "the root document is a local file, so its references may name only files in its directory tree (URLs are not followed)",
        };
      if (url.host !== "" || url.search !== "")
        return { refused: "is not a plain file path (host or query)" };
      let path: string;
      try {
        path = fileURLToPath(url);
      } catch {
        return { refused: "is not a valid file path" };
      }
      const key = inside(rootDir, path);
      if (key === undefined) return { refused: "resolves outside the root document's directory" };
      return { id: pathToFileURL(path).href, key };
    },
    async read(id, key, budget) {
      const path = fileURLToPath(id);
      let real: string;
      try {
        real = await realpath(path);
      } catch (error) {
        throw unreadable(source, key, error);
      }
      realRoot ??= realpath(rootDir);
      if (inside(await realRoot, real) === undefined)
        return { refused: "resolves through a symbolic link outside the root document's directory" };
      let size: number;
      try {
        const info = await stat(real);
        if (!info.isFile())
          throw new SourceError(
            source,
            "SOURCE_FETCH_FAILED",
            `external document ${key} is not a regular file.`,
          );
        size = info.size;
      } catch (error) {
        if (error instanceof SourceError) throw error;
        throw unreadable(source, key, error);
      }
      if (size > budget.maxBytes) throw new ByteBudgetExceeded();
      let bytes: Buffer;
      try {
        bytes = await readFile(real, { signal: budget.signal });
      } catch (error) {
        if (budget.signal.aborted) throw error;
        throw unreadable(source, key, error);
      }
      if (bytes.byteLength > budget.maxBytes) throw new ByteBudgetExceeded();
      return bytes;
    },
  };
}

export interface UrlScopeOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly allowInsecureHttp: boolean;
}

/** The scope of a root document fetched from `rootLocation`. */
export function urlScope(source: string, rootLocation: string, options: UrlScopeOptions): DocumentScope {
  const root = new URL(rootLocation);
  root.hash = "";
  root.search = "";
  const rootDir = root.pathname.slice(0, root.pathname.lastIndexOf("/") + 1);
  return {
    rootId: root.href,
    check(url) {
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return { refused: `is not an http(s) URL; references are followed only on ${root.origin}` };
      if (url.username !== "" || url.password !== "") return { refused: "carries credentials" };
      if (url.origin !== root.origin)
        return {
          refused: `is on another origin (${url.origin}); references are followed only on ${root.origin}, the one origin schema-fetch headers are sent to`,
        };
      if (url.search !== "") return { refused: "carries a query string" };
      const key = url.pathname.startsWith(rootDir) ? url.pathname.slice(rootDir.length) : url.pathname;
      return { id: url.href, key };
    },
    async read(id, _key, budget) {
      try {
        return await fetchDocument(source, id, {
          headers: options.headers,
          allowInsecureHttp: options.allowInsecureHttp,
          limits: { maxBytes: budget.maxBytes },
          signal: budget.signal,
        });
      } catch (error) {
        if (error instanceof SourceError && error.code === "SOURCE_TOO_LARGE") throw new ByteBudgetExceeded();
        throw error;
      }
    },
  };
}

/** `path` relative to `dir` ("/"-separated) when strictly inside it; undefined otherwise. */
function inside(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

function unreadable(source: string, key: string, error: unknown): SourceError {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  return new SourceError(
    source,
    "SOURCE_FETCH_FAILED",
    `external document ${key} cannot be read (${code}); fix the $ref or add the file.`,
    {},
    { cause: error },
  );
}
