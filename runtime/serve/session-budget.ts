/**
 * A session's budget (docs/serve.md, "Budgets"): how many capability calls one MCP session may start
 * in all, to remote tools, and per tool. A call is counted when it is admitted, before it reaches the
 * router, whatever the router then decides; checking and counting happen together (synchronously,
 * all limits or none), so concurrent calls of one session can never overspend it. Each served call is
 * one run with no retries and no fallbacks, so a call is also one attempt: the refusals are the
 * router's BUDGET_EXCEEDED, with the limit `calls`, `remoteAttempts` or `toolQuota`.
 */
import { exceeded } from "../governed/budget.js";
import { invalid } from "./catalog.js";

export interface SessionBudgetOptions {
  /** Capability calls per session. */
  readonly maxCalls?: number;
  /** Calls to tools classified remote, per session. */
  readonly maxRemoteCalls?: number;
  /** Calls per tool (source) name, per session. */
  readonly toolQuotas?: Readonly<Record<string, number>>;
}

export interface BudgetSubject {
  readonly route: string;
  readonly tool: string;
  readonly remote: boolean;
}

export class SessionBudget {
  #calls = 0;
  #remote = 0;
  readonly #perTool = new Map<string, number>();

  constructor(readonly options: SessionBudgetOptions = {}) {}

  /** Checks every limit for one more call, then counts it; throws BUDGET_EXCEEDED and counts nothing. */
  admit(subject: BudgetSubject): void {
    const { maxCalls, maxRemoteCalls, toolQuotas = {} } = this.options;
    if (maxCalls !== undefined && this.#calls + 1 > maxCalls)
      throw exceeded("calls", maxCalls, this.#calls, subject.route);
    if (subject.remote && maxRemoteCalls !== undefined && this.#remote + 1 > maxRemoteCalls)
      throw exceeded("remoteAttempts", maxRemoteCalls, this.#remote, subject.route);
    const quota = Object.hasOwn(toolQuotas, subject.tool) ? toolQuotas[subject.tool] : undefined;
    const used = this.#perTool.get(subject.tool) ?? 0;
    if (quota !== undefined && used + 1 > quota)
      throw exceeded("toolQuota", quota, used, subject.route, { tool: subject.tool });
    this.#calls++;
    if (subject.remote) this.#remote++;
    this.#perTool.set(subject.tool, used + 1);
  }

  usage(): {
    readonly calls: number;
    readonly remoteCalls: number;
    readonly perTool: Record<string, number>;
  } {
    return { calls: this.#calls, remoteCalls: this.#remote, perTool: Object.fromEntries(this.#perTool) };
  }
}

/** Validates session budget options (non-negative integers; a known shape). */
export function checkSessionBudget(options: SessionBudgetOptions | undefined): SessionBudgetOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object") throw invalid("sessionBudget", "must be an object.");
  for (const key of Object.keys(options)) {
    if (!["maxCalls", "maxRemoteCalls", "toolQuotas"].includes(key))
      throw invalid(`sessionBudget.${key}`, "unknown option (maxCalls, maxRemoteCalls, toolQuotas).");
  }
  const count = (value: unknown, option: string) => {
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0))
      throw invalid(option, "must be an integer >= 0.");
  };
  count(options.maxCalls, "sessionBudget.maxCalls");
  count(options.maxRemoteCalls, "sessionBudget.maxRemoteCalls");
  const quotas = options.toolQuotas ?? {};
  if (quotas === null || typeof quotas !== "object" || Array.isArray(quotas))
    throw invalid("sessionBudget.toolQuotas", "must map tool names to integers.");
  for (const [tool, quota] of Object.entries(quotas)) count(quota, `sessionBudget.toolQuotas.${tool}`);
  return Object.freeze({ ...options, toolQuotas: Object.freeze({ ...quotas }) });
}
