/**
 * The compile worker (docs/reference/cli.md, "Large projects"): a worker thread that runs one source
 * job at a time (source-job.ts) for the main thread's pool (worker-pool.ts) and posts back the
 * outcome as plain data. The bindings template is parsed here on first need, once per worker.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ClientTemplate } from "../emit/template.js";
import { cachedClientTemplate } from "../emit/template-cache.js";
import {
  describe,
  type JobSetting,
  type RefusedOutcome,
  runSourceJob,
  type SourceJob,
  type SourceOutcome,
} from "./source-job.js";

/** A worker's answer to one job: its outcome, or the failure that concerns the whole compile. */
export type WorkerReply =
  | { readonly ok: true; readonly outcome: SourceOutcome }
  | { readonly ok: false; readonly code: string; readonly message: string };

const setting = workerData as JobSetting;
let template: Promise<ClientTemplate> | undefined;

parentPort?.on("message", (job: SourceJob) => {
  runSourceJob(job, setting, () => {
    template ??= cachedClientTemplate(setting.templateText, setting.config.path);
    return template;
  }).then(
    (outcome) => {
      // The error object stays here; its code and message are in the outcome.
      const reply: WorkerReply = {
        ok: true,
        outcome: outcome.kind === "refused" ? portable(outcome) : outcome,
      };
      parentPort?.postMessage(reply);
    },
    (error: unknown) => parentPort?.postMessage({ ok: false, ...describe(error) } satisfies WorkerReply),
  );
});

function portable(outcome: RefusedOutcome): RefusedOutcome {
  const { error: _error, ...rest } = outcome;
  return rest;
}
