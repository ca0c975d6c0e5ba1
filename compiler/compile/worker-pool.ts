/**
 * The pool of compile workers (docs/reference/cli.md, "Large projects"): `size` worker threads
 * running source-worker.ts, each given one source job at a time, so at most `size` sources are in
 * memory at once whatever the project's size. A worker that dies (out of memory, a crash) fails its
 * job with COMPILE_WORKER_FAILED and is replaced for the jobs still queued.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { CompileError } from "../errors/errors.js";
import type { JobSetting, SourceJob } from "./source-job.js";
import type { WorkerReply } from "./source-worker.js";

/**
 * The worker script: the built module next to this one. Run from TypeScript sources (the tests),
 * there is none, and sources compile on the main thread.
 */
const SCRIPT = new URL("./source-worker.js", import.meta.url);

export function workersAvailable(): boolean {
  return SCRIPT.protocol === "file:" && existsSync(fileURLToPath(SCRIPT));
}

interface Task {
  readonly job: SourceJob;
  /** Replace the worker once the job is done (it compiled a heavy document; schedule.ts). */
  readonly recycle: boolean;
  readonly resolve: (reply: WorkerReply) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Jobs one worker runs before it is replaced: a long-lived worker's heap keeps what its largest
 * documents grew it to, so replacing it now and then bounds the process's peak memory
 * (docs/benchmarks.md, "Scale: cold peak memory").
 */
export const JOBS_PER_WORKER = 150;

export class WorkerPool {
  private readonly idle: Worker[] = [];
  /** Jobs each live worker has been given. */
  private readonly given = new Map<Worker, number>();
  private readonly busy = new Map<Worker, Task>();
  private readonly workers = new Set<Worker>();
  private readonly queue: Task[] = [];
  private closing = false;

  constructor(
    readonly size: number,
    private readonly setting: JobSetting,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  run(job: SourceJob, recycle = false): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, recycle, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const task = this.queue.shift()!;
      this.busy.set(worker, task);
      this.given.set(worker, (this.given.get(worker) ?? 0) + 1);
      worker.postMessage(task.job);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(SCRIPT, { workerData: this.setting });
    this.workers.add(worker);
    worker.on("message", (reply: WorkerReply) => {
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      const worn = (this.given.get(worker) ?? 0) >= JOBS_PER_WORKER;
      if ((task?.recycle === true || worn) && !this.closing) {
        this.workers.delete(worker);
        this.given.delete(worker);
        void worker.terminate();
        this.idle.push(this.spawn());
      } else this.idle.push(worker);
      task?.resolve(reply);
      this.pump();
    });
    worker.on("error", (error) => this.lost(worker, error.message));
    worker.on("exit", (code) => this.lost(worker, `the worker exited with code ${code}`));
    return worker;
  }

  /** A worker ended: its job fails, and a new worker takes its place. */
  private lost(worker: Worker, reason: string): void {
    if (!this.workers.delete(worker)) return;
    this.given.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    const task = this.busy.get(worker);
    this.busy.delete(worker);
    if (this.closing) return;
    if (task !== undefined)
      task.reject(
        new CompileError(
          "COMPILE_WORKER_FAILED",
          `the compile worker compiling source "${task.job.name}" ended (${reason}); run \`schemarouter compile --jobs=1\` to compile on one thread, and report it if that fails too.`,
          { source: task.job.name, ended: reason },
        ),
      );
    void worker.terminate();
    this.idle.push(this.spawn());
    this.pump();
  }
}
