/**
 * Builds each compiled source's retrieval-index segment on the main thread while the workers go on
 * with the next sources (docs/reference/cli.md, "Large projects"): `add` only queues the artifact
 * text, and the queue is worked off between other main-thread work, so a worker never waits for the
 * main thread to tokenise the source it just sent. Each segment is held encoded, in the compile
 * cache's segment format (emit/surface-segments.ts), outside the JavaScript heap, and decoded when
 * the index asks for it: thousands of segments as object graphs were most of the main thread's heap
 * (docs/benchmarks.md, "Scale: cold peak memory"). `drain` finishes the queue before the index is
 * built; the segments are what `segmentOf` gives, whenever they are built.
 */
import { decodeSegment, encodeSegment, type SurfaceSegment, segmentOf } from "../emit/surface-segments.js";

/** The built segments by artifact digest, each decoded from its bytes on `get`. */
export class EncodedSegments {
  private readonly bytes = new Map<string, Buffer>();

  get size(): number {
    return this.bytes.size;
  }

  set(digest: string, segment: SurfaceSegment): void {
    this.bytes.set(digest, encodeSegment(segment, digest));
  }

  get(digest: string): SurfaceSegment | undefined {
    const bytes = this.bytes.get(digest);
    if (bytes === undefined) return undefined;
    const segment = decodeSegment(bytes, digest);
    // The bytes were encoded in this process from a segment segmentOf built: they always decode.
    if (segment === undefined) throw new Error(`segment-queue: the held segment of ${digest} did not decode`);
    return segment;
  }
}

/**
 * Artifact texts waiting for their segment beyond which `add` waits: on a loaded machine the main
 * thread can fall behind the workers, and every waiting text is a whole artifact in memory.
 */
export const MAX_PENDING_TEXTS = 8;

export class SegmentQueue {
  /** Segments built so far, by artifact digest. */
  readonly built = new EncodedSegments();
  private readonly pending: { digest: string; text: string; path: string }[] = [];
  private running: Promise<void> | undefined;
  private failure: unknown;
  /** Callers of `add` waiting for the queue to shorten. */
  private readonly waiting: (() => void)[] = [];

  /**
   * Queues the segment of the artifact `text` (with `digest`; `path` names it in a layout error);
   * resolves once at most MAX_PENDING_TEXTS texts are waiting.
   */
  async add(digest: string, text: string, path: string): Promise<void> {
    this.pending.push({ digest, text, path });
    this.running ??= this.work();
    while (this.pending.length > MAX_PENDING_TEXTS) await new Promise<void>((go) => this.waiting.push(go));
  }

  /** Every queued segment built (throws what building one threw). */
  async drain(): Promise<EncodedSegments> {
    while (this.running !== undefined) await this.running;
    if (this.failure !== undefined) throw this.failure;
    return this.built;
  }

  private async work(): Promise<void> {
    try {
      for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
        for (const go of this.waiting.splice(0)) go();
        // Let the event loop hand the next job to a worker first.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.failure === undefined) this.built.set(next.digest, segmentOf(next.text, next.path));
      }
    } catch (error) {
      this.failure = error;
      this.pending.length = 0;
    } finally {
      this.running = undefined;
      for (const go of this.waiting.splice(0)) go();
    }
  }
}
