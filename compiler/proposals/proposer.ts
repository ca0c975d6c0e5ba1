/**
 * The proposer contract (docs/sources/proposals.md, "Writing a proposer"): a model callback the
 * application supplies in a trusted local module. It sees the page's visible text and returns
 * candidate endpoints; its answer is untrusted and grounded afterwards. It runs bounded by a time limit.
 */
import { resolve } from "node:path";
import { SourceError } from "../errors/errors.js";
import { importTrustedModule } from "../sources/local/index.js";

export interface ProposerInput {
  /** The source name the proposal is for. */
  readonly source: string;
  /** The page's location, sanitized (no userinfo, query or fragment). */
  readonly location: string;
  readonly title: string;
  /** The page's visible text: NFC, one line per block (docs/sources/proposals.md). */
  readonly text: string;
  /** Aborted when the time limit is reached. */
  readonly signal: AbortSignal;
}

/** A candidate as the proposer returns it; every quote must be copied from `text` exactly. */
export interface ProposerCandidate {
  readonly name?: string;
  readonly method: string;
  readonly path: string;
  readonly list?: boolean;
  readonly quote: string;
  readonly parameters?: readonly {
    readonly name: string;
    readonly in?: "path" | "query" | "body";
    readonly required?: boolean;
    readonly type?: "string" | "integer" | "number" | "boolean";
    readonly quote: string;
  }[];
  readonly fields?: readonly {
    readonly name: string;
    readonly type?: "string" | "integer" | "number" | "boolean";
    readonly quote: string;
  }[];
}

export interface ProposerAnswer {
  readonly endpoints: readonly ProposerCandidate[];
}

export interface Proposer {
  /** Shown in the proposal file (descriptive). */
  readonly name: string;
  propose(input: ProposerInput): ProposerAnswer | Promise<ProposerAnswer>;
}

const PROPOSER = Symbol.for("schemarouter.proposer");

/** Declares a proposer module's export: `export default defineProposer({ name, propose })`. */
export function defineProposer(proposer: Proposer): Proposer {
  return Object.freeze({ ...proposer, [PROPOSER]: true });
}

function isProposer(value: unknown): value is Proposer {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[PROPOSER] === true &&
    typeof (value as Proposer).propose === "function" &&
    typeof (value as Proposer).name === "string"
  );
}

export const DEFAULT_PROPOSER_TIMEOUT_MS = 120_000;

export interface ProposerModule {
  readonly module: string;
  readonly export?: string;
  readonly timeoutMs?: number;
}

export async function loadProposer(source: string, config: ProposerModule, cwd: string): Promise<Proposer> {
  const module = await importTrustedModule(source, resolve(cwd, config.module), config.module).catch(
    (error: unknown) => {
      throw new SourceError(
        source,
        "PROPOSER_INVALID",
        `cannot load the proposer module ${config.module}: ${(error as Error).message}`,
        { module: config.module },
        { cause: error },
      );
    },
  );
  const exported = module[config.export ?? "default"];
  if (!isProposer(exported))
    throw new SourceError(
      source,
      "PROPOSER_INVALID",
      `${config.module} does not export ${config.export ?? "a default"} defineProposer({ name, propose }).`,
      { module: config.module },
    );
  return exported;
}

/** Calls the proposer within its time limit; a throw or a hang becomes PROPOSER_FAILED. */
export async function runProposer(
  source: string,
  proposer: Proposer,
  input: Omit<ProposerInput, "signal">,
  timeoutMs: number,
): Promise<unknown> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new SourceError(
          source,
          "PROPOSER_FAILED",
          `the proposer "${proposer.name}" did not answer within ${timeoutMs} ms; raise proposer.timeoutMs or check the model endpoint.`,
          { reason: "timeout", timeoutMs },
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve().then(() => proposer.propose({ ...input, signal: controller.signal })),
      timeout,
    ]);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      source,
      "PROPOSER_FAILED",
      `the proposer "${proposer.name}" threw: ${(error as Error)?.message ?? String(error)}`,
      { reason: "threw" },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
