/**
 * `schemarouter approve` (docs/sources/proposals.md, "Approval"): the separate authority transition
 * that turns a reviewed proposal into a `proposal` source. It needs an explicit API base URL, a
 * grounding share at or above the threshold, and `--allow-mutations` before any non-GET endpoint is
 * compiled. It pins the proposal file's digest, so an edited or re-proposed file needs approving again.
 */
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { type ConfigFile, validateConfig } from "../config/config.js";
import type { ProposalSourceConfig } from "../config/proposal-source.js";
import { writeAtomic } from "../emit/write.js";
import { ConfigError } from "../errors/errors.js";
import { checkBaseUrl } from "../sources/proposal/base-url.js";
import { groundingRatio } from "../sources/proposal/proposal.js";
import { readProposal } from "../sources/proposal/proposal-file.js";

export const DEFAULT_MIN_GROUNDING = 0.8;
const NAME = /^[a-z][A-Za-z0-9_]*$/;

export interface ApproveOptions {
  readonly config: string;
  readonly proposal: string;
  readonly baseUrl: string | undefined;
  readonly allowMutations: boolean;
  readonly minGrounding: number;
  /** The source name (default: the proposal's). */
  readonly name?: string;
}

export interface ApproveResult {
  readonly name: string;
  readonly source: ProposalSourceConfig;
  readonly endpoints: number;
  /** Non-GET endpoints left out because `--allow-mutations` was not given. */
  readonly mutationsLeftOut: readonly string[];
  readonly replaced: boolean;
}

export async function approveProposal(options: ApproveOptions): Promise<ApproveResult> {
  const proposalPath = resolve(options.proposal);
  const where = { path: proposalPath };
  const baseUrl = checkBaseUrl(options.baseUrl, proposalPath, await allowsInsecureHttp(options.config));
  const { proposal, digest } = await readProposal(options.name ?? "approve", proposalPath);
  const name = options.name ?? proposal.source;
  if (!NAME.test(name))
    throw new ConfigError(
      "PROPOSAL_REFUSED",
      `source name "${name}" must start with a lower-case letter and use only letters, digits and _; pass --name.`,
      { ...where, reason: "name" },
    );
  const ratio = groundingRatio(proposal);
  if (!(Number.isFinite(options.minGrounding) && options.minGrounding >= 0 && options.minGrounding <= 1))
    throw new ConfigError("PROPOSAL_REFUSED", "--min-grounding takes a number from 0 to 1.", {
      ...where,
      reason: "threshold",
      threshold: options.minGrounding,
    });
  if (ratio < options.minGrounding)
    throw new ConfigError(
      "PROPOSAL_REFUSED",
      `only ${proposal.grounding.grounded} of ${proposal.grounding.offered} proposed items (${Math.round(ratio * 100)}%) are grounded by a quote, below the ${Math.round(options.minGrounding * 100)}% threshold; review the dropped items in the proposal, fix the proposer or the page, and propose again (or lower --min-grounding deliberately).`,
      { ...where, reason: "threshold", grounding: ratio, threshold: options.minGrounding },
    );
  const mutations = proposal.endpoints.filter((e) => e.method !== "get").map((e) => e.name);
  const kept = options.allowMutations
    ? proposal.endpoints.length
    : proposal.endpoints.length - mutations.length;
  if (kept === 0)
    throw new ConfigError(
      "PROPOSAL_REFUSED",
      proposal.endpoints.length === 0
        ? "the proposal has no grounded endpoint; nothing to approve."
        : `every grounded endpoint changes state (${mutations.join(", ")}); pass --allow-mutations to approve them.`,
      { ...where, reason: "empty", grounding: ratio },
    );
  const configPath = resolve(options.config);
  const file = await readConfig(configPath);
  const existing = file.sources[name];
  if (existing !== undefined && existing.kind !== "proposal")
    throw new ConfigError(
      "SOURCE_EXISTS",
      `source "${name}" already exists in ${configPath} as a ${existing.kind} source; pass --name.`,
      { name },
    );
  const source: ProposalSourceConfig = {
    kind: "proposal",
    proposal: relative(dirname(configPath), proposalPath).split("\\").join("/"),
    digest,
    baseUrl,
    ...(options.allowMutations ? { allowMutations: true } : {}),
    ...(existing?.kind === "proposal" && existing.overlays !== undefined
      ? { overlays: existing.overlays }
      : {}),
  };
  const next: ConfigFile = { ...file, sources: { ...file.sources, [name]: source } };
  validateConfig(next, configPath);
  await writeAtomic(configPath, `${JSON.stringify(next, null, 2)}\n`);
  return {
    name,
    source,
    endpoints: kept,
    mutationsLeftOut: options.allowMutations ? [] : mutations,
    replaced: existing !== undefined,
  };
}

async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new ConfigError("CONFIG_NOT_FOUND", `No config at ${path}. Run \`schemarouter init\` first.`, {
      path,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError("CONFIG_INVALID", `${path} is not valid JSON: ${(error as Error).message}`, {
      path,
    });
  }
  return validateConfig(value, path, text);
}

async function allowsInsecureHttp(configPath: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(resolve(configPath), "utf8")) as ConfigFile).allowInsecureHttp === true;
  } catch {
    return false;
  }
}
