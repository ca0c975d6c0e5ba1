/**
 * The approvals bridge (docs/agents/README.md, "Approvals"): connects the router's approval callback
 * to a framework's human-in-the-loop mechanism (AI SDK `needsApproval`, OpenAI Agents interruptions).
 *
 * Pass `approvals.approve` to `SchemaRouter.load({ approve })` and the same object to the adapter.
 * When the framework reports that a person approved a tool call, the adapter grants a one-shot
 * approval bound to the exact call — tool, endpoint, both fingerprints and the digest of the
 * arguments — for as long as that call runs. The router's callback approves a request only when such
 * a grant matches it exactly; anything else goes to the `fallback` callback, or is refused.
 */
import type { ApprovalCallback, ApprovalRequest } from "../boundary/executor.js";
import { digestJson } from "../format/fingerprint.js";
import type { ToolCall } from "../model/specs.js";

export interface AgentApprovalsOptions {
  /** Decides requests no framework approval covers (calls made outside an agent). Default: refuse. */
  readonly fallback?: ApprovalCallback;
}

/** The identity an approval is bound to (the argument values only as a digest). */
export interface ApprovalBinding {
  readonly tool: string;
  readonly endpoint: string;
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  readonly argumentsDigest: string;
}

export class AgentApprovals {
  /** Outstanding one-shot grants by call identity, oldest first. */
  readonly #grants = new Map<string, Set<symbol>>();
  readonly #fallback: ApprovalCallback | undefined;

  constructor(options: AgentApprovalsOptions = {}) {
    this.#fallback = options.fallback;
  }

  /** The router's approval callback (`SchemaRouter.load({ approve: approvals.approve })`). */
  readonly approve: ApprovalCallback = (request: ApprovalRequest) => {
    const key = keyOf(bindingOfRequest(request));
    const tokens = this.#grants.get(key);
    const first = tokens?.values().next();
    if (tokens !== undefined && first !== undefined && first.done !== true) {
      this.#take(key, tokens, first.value);
      return true;
    }
    return this.#fallback !== undefined ? this.#fallback(request) : false;
  };

  /**
   * Grants one approval of exactly this call; the returned function withdraws it if it was not used
   * (call it when the call settles, so an approval never outlives the call it was given for).
   */
  grant(call: ToolCall): () => void {
    const key = keyOf(bindingOf(call));
    const token = Symbol(key);
    let tokens = this.#grants.get(key);
    if (tokens === undefined) {
      tokens = new Set();
      this.#grants.set(key, tokens);
    }
    tokens.add(token);
    return () => {
      const current = this.#grants.get(key);
      if (current?.has(token)) this.#take(key, current, token);
    };
  }

  /** Outstanding grants (for tests and diagnostics). */
  get pending(): number {
    let total = 0;
    for (const tokens of this.#grants.values()) total += tokens.size;
    return total;
  }

  #take(key: string, tokens: Set<symbol>, token: symbol): void {
    tokens.delete(token);
    if (tokens.size === 0) this.#grants.delete(key);
  }
}

export function bindingOf(call: ToolCall): ApprovalBinding {
  return {
    tool: call.tool,
    endpoint: call.endpoint,
    endpointFingerprint: call.endpointFingerprint,
    toolFingerprint: call.toolFingerprint,
    argumentsDigest: digestJson(call.arguments),
  };
}

function bindingOfRequest(request: ApprovalRequest): ApprovalBinding {
  return {
    tool: request.tool,
    endpoint: request.endpoint,
    endpointFingerprint: request.endpointFingerprint,
    toolFingerprint: request.toolFingerprint,
    argumentsDigest: digestJson(request.arguments),
  };
}

function keyOf(binding: ApprovalBinding): string {
  return JSON.stringify([
    binding.tool,
    binding.endpoint,
    binding.endpointFingerprint,
    binding.toolFingerprint,
    binding.argumentsDigest,
  ]);
}
