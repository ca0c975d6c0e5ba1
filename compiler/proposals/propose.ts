/**
 * `schemarouter propose` (docs/sources/proposals.md): read one documentation page (bounded; a URL
 * through the compiler's bounded fetch, no redirect off its origin), hand its visible text to the
 * proposer, ground the answer, and write the non-executable SchemaProposal atomically, with a
 * classified diff against the proposal it replaces.
 */
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { isUrl, sanitizeLocation, sha256 } from "schemarouter/internal";
import { writeAtomic } from "../emit/write.js";
import { SourceError } from "../errors/errors.js";
import { fetchDocument } from "../sources/fetch.js";
import { PROPOSAL_FORMAT, type SchemaProposal } from "../sources/proposal/proposal.js";
import { readProposal, serializeProposal } from "../sources/proposal/proposal-file.js";
import { diffProposals, type ProposalChange } from "./diff.js";
import { ground } from "./grounding.js";
import { DEFAULT_PROPOSER_TIMEOUT_MS, loadProposer, type ProposerModule, runProposer } from "./proposer.js";
import { visibleText } from "./visible-text.js";

/** Documentation pages are small; a bigger answer is refused before parsing. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 30_000;

export interface ProposeOptions {
  readonly source: string;
  /** A URL or a file path (relative to `cwd`). */
  readonly location: string;
  readonly cwd: string;
  readonly proposer: ProposerModule;
  /** Where the proposal is written. */
  readonly out: string;
  readonly allowInsecureHttp: boolean;
}

export interface ProposeResult {
  readonly proposal: SchemaProposal;
  readonly path: string;
  /** Absent when no proposal was there before. */
  readonly changes: readonly ProposalChange[] | undefined;
}

export async function propose(options: ProposeOptions): Promise<ProposeResult> {
  const { source } = options;
  const bytes = isUrl(options.location)
    ? await fetchDocument(source, options.location, {
        headers: { accept: "text/html, application/xhtml+xml;q=0.9, text/plain;q=0.5" },
        allowInsecureHttp: options.allowInsecureHttp,
        limits: { maxBytes: MAX_PAGE_BYTES, timeoutMs: PAGE_TIMEOUT_MS },
      })
    : await readPage(source, resolve(options.cwd, options.location));
  const page = visibleText(new TextDecoder("utf-8").decode(bytes));
  const location = isUrl(options.location) ? sanitizeLocation(options.location) : options.location;
  const proposer = await loadProposer(source, options.proposer, options.cwd);
  const answer = await runProposer(
    source,
    proposer,
    { source, location, title: page.title, text: page.text },
    options.proposer.timeoutMs ?? DEFAULT_PROPOSER_TIMEOUT_MS,
  );
  if (
    typeof answer !== "object" ||
    answer === null ||
    !Array.isArray((answer as { endpoints?: unknown }).endpoints)
  )
    throw new SourceError(
      source,
      "PROPOSER_FAILED",
      `the proposer "${proposer.name}" returned ${answer === null ? "null" : typeof answer}, not { endpoints: [...] }.`,
      { reason: "malformed" },
    );
  const grounded = ground(page, answer);
  const proposal: SchemaProposal = {
    format: PROPOSAL_FORMAT,
    executable: false,
    source,
    document: { location, digest: sha256(bytes), title: page.title },
    proposer: proposer.name.slice(0, 200),
    endpoints: grounded.endpoints,
    dropped: grounded.dropped,
    grounding: { offered: grounded.offered, grounded: grounded.grounded },
  };
  const previous = await readPrevious(source, options.out);
  await writeAtomic(options.out, serializeProposal(proposal));
  return {
    proposal,
    path: options.out,
    changes: previous === undefined ? undefined : diffProposals(previous, proposal),
  };
}

async function readPrevious(source: string, path: string): Promise<SchemaProposal | undefined> {
  try {
    return (await readProposal(source, path)).proposal;
  } catch (error) {
    // No previous proposal (or one this format cannot read): nothing to compare against.
    if (error instanceof SourceError && error.code === "PROPOSAL_INVALID") return undefined;
    throw error;
  }
}

/** Reads a page file, refusing one over the size limit before reading it all. */
async function readPage(source: string, path: string): Promise<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new SourceError(source, "SOURCE_FETCH_FAILED", `cannot read ${path}.`, {}, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_PAGE_BYTES)
      throw new SourceError(
        source,
        "SOURCE_TOO_LARGE",
        `${path} is ${size} bytes, over the ${MAX_PAGE_BYTES}-byte limit.`,
      );
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
