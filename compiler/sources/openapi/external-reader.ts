/**
 * Reads the documents external `$ref`s name, one at a time and within the source's `externalRefs`
 * limits (docs/sources/openapi-external-refs.md): documents besides the root, depth from the root,
 * bytes and time over all of them. Exceeding one is a SourceError naming the limit.
 */
import { sha256 } from "schemarouter/internal";
import type { ExternalRefLimit, ExternalRefLimits } from "../../config/external-refs.js";
import { SourceError } from "../../errors/errors.js";
import { parseDocumentText } from "./document.js";
import { ByteBudgetExceeded, type DocumentScope } from "./external-scope.js";

export interface ReadDocument {
  readonly value: unknown;
  /** SHA-256 of the bytes as read. */
  readonly digest: string;
}

export class ExternalDocumentReader {
  private documents = 0;
  private bytes = 0;
  private readonly signal: AbortSignal;

  constructor(
    private readonly source: string,
    private readonly scope: DocumentScope,
    private readonly limits: ExternalRefLimits,
  ) {
    this.signal = AbortSignal.timeout(limits.timeoutMs);
  }

  /** Reads the document `id` (named `key`) first reached at `depth`; a refusal when reading finds one. */
  async read(id: string, key: string, depth: number): Promise<ReadDocument | { readonly refused: string }> {
    if (depth > this.limits.maxDepth)
      throw this.exceeded(
        "maxDepth",
        `external document ${key} is ${depth} documents away from the root document`,
        "or look for a chain of references that never ends",
      );
    if (this.documents >= this.limits.maxDocuments)
      throw this.exceeded(
        "maxDocuments",
        `reading ${key} would be external document ${this.documents + 1}`,
        "if the project really has that many documents",
      );
    if (this.signal.aborted) throw this.exceeded("timeoutMs", `reading ${key} was not started`);
    let bytes: Uint8Array | { readonly refused: string };
    try {
      bytes = await this.scope.read(id, key, {
        maxBytes: this.limits.maxBytes - this.bytes,
        signal: this.signal,
      });
    } catch (error) {
      if (error instanceof ByteBudgetExceeded)
        throw this.exceeded("maxBytes", `reading ${key} would exceed it`);
      if (this.signal.aborted) throw this.exceeded("timeoutMs", `reading ${key} was cut off`);
      throw error;
    }
    if (!(bytes instanceof Uint8Array)) return bytes;
    this.documents++;
    this.bytes += bytes.byteLength;
    return {
      value: parseDocumentText(this.source, bytes, `external document ${key}`),
      digest: sha256(bytes),
    };
  }

  private exceeded(limit: ExternalRefLimit, what: string, hint = ""): SourceError {
    const value = this.limits[limit];
    return new SourceError(
      this.source,
      "EXTERNAL_REF_LIMIT",
      `external $refs exceed externalRefs.${limit} (${value}): ${what}. Raise "${limit}" in this source's "externalRefs" config${hint === "" ? "" : ` ${hint}`}.`,
      { limit, value },
    );
  }
}
