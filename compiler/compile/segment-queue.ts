/**
 * Builds each compiled source's retrieval-index segment on the main thread while the workers go on
 * with the next sources (docs/reference/cli.md, "Large projects"): `add` only queues the artifact
 * text, and the queue is worked off between other main-thread work, so a worker never waits for the
 * main thread to tokenise the source it just sent. `drain` finishes the queue before the index is
 * built; the segments are what `segmentOf` gives, whenever they are built.
 */
import { type SurfaceSegment, segmentOf } from "../emit/surface-segments.js";

export class SegmentQueue {
  /** Segments built so far, by artifact digest. */
  readonly built = new Map<string, SurfaceSegment>();
  private readonly pending: { digest: string; text: string; path: string }[] = [];
  private running: Promise<void> | undefined;
  private failure: unknown;

  /** Queues the segment of the artifact `text` (with `digest`; `path` names it in a layout error). */
  add(digest: string, text: string, path: string): void {
    this.pending.push({ digest, text, path });
    this.running ??= this.work();
  }

  /** Every queued segment built (throws what building one threw). */
  async drain(): Promise<ReadonlyMap<string, SurfaceSegment>> {
    while (this.running !== undefined) await this.running;
    if (this.failure !== undefined) throw this.failure;
    return this.built;
  }

  private async work(): Promise<void> {
    try {
      for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
        // Let the event loop hand the next job to a worker first.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.failure === undefined) this.built.set(next.digest, segmentOf(next.text, next.path));
      }
    } catch (error) {
      this.failure = error;
      this.pending.length = 0;
    } finally {
      this.running = undefined;
    }
  }
}
