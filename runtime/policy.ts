/**
 * Local execution authority (seed findings 11, 18, 25): category defaults that block remote mutation,
 * destructive and unclassified remote operations, plus ordered PolicyRules from trusted local code.
 * Nothing a model or a remote schema produces can construct or change a policy.
 */
import type { Effect } from "./model.js";

export type PolicyAction = "allow" | "deny" | "require-approval";
export type ApprovalMode = "never" | "non-read-only" | "all";

export interface PolicySubject {
  readonly tool: string;
  readonly endpoint: string;
  readonly effect: Effect;
  readonly remote: boolean;
}

export interface PolicyRuleOptions {
  readonly action: PolicyAction;
  /** Glob over `tool.endpoint`: `*` matches within a dot-separated segment, `**` across segments. */
  readonly operation: string;
  readonly effects?: readonly Effect[];
  readonly remote?: boolean;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly unclassified?: boolean;
}

const MAX_PATTERN_LENGTH = 256;
const PATTERN_CHARS = /^[A-Za-z0-9_\-./:{}*]+$/;

export class PolicyRule {
  readonly action: PolicyAction;
  readonly operation: string;
  readonly effects: readonly Effect[] | undefined;
  readonly remote: boolean | undefined;
  readonly readOnly: boolean | undefined;
  readonly destructive: boolean | undefined;
  readonly unclassified: boolean | undefined;
  private readonly matcher: RegExp;

  constructor(options: PolicyRuleOptions) {
    if (!["allow", "deny", "require-approval"].includes(options.action)) {
      throw new TypeError(
        `PolicyRule: action must be allow, deny or require-approval (got ${String(options.action)})`,
      );
    }
    const pattern = options.operation;
    if (typeof pattern !== "string" || pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
      throw new TypeError(
        `PolicyRule: operation must be a non-empty glob of at most ${MAX_PATTERN_LENGTH} characters`,
      );
    }
    if (!PATTERN_CHARS.test(pattern) || /\*{3,}/.test(pattern)) {
      throw new TypeError(
        `PolicyRule: operation "${pattern}" may contain only letters, digits, _ - . / : { } and * or ** wildcards`,
      );
    }
    this.action = options.action;
    this.operation = pattern;
    this.effects = options.effects ? Object.freeze([...options.effects]) : undefined;
    this.remote = options.remote;
    this.readOnly = options.readOnly;
    this.destructive = options.destructive;
    this.unclassified = options.unclassified;
    this.matcher = globToRegExp(pattern);
    Object.freeze(this);
  }

  matches(subject: PolicySubject): boolean {
    if (!this.matcher.test(`${subject.tool}.${subject.endpoint}`)) return false;
    if (this.effects !== undefined && !this.effects.includes(subject.effect)) return false;
    if (this.remote !== undefined && this.remote !== subject.remote) return false;
    if (this.readOnly !== undefined && this.readOnly !== (subject.effect === "read")) return false;
    if (this.destructive !== undefined && this.destructive !== (subject.effect === "destructive"))
      return false;
    if (this.unclassified !== undefined && this.unclassified !== (subject.effect === "unclassified"))
      return false;
    return true;
  }
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*") {
      if (pattern[i + 1] === "*") {
        source += ".*";
        i++;
      } else {
        source += "[^.]*";
      }
    } else {
      source += char.replace(/[\\^$+?.()|[\]{}/-]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

export interface ExecutionPolicyOptions {
  readonly allowMutations?: boolean;
  readonly allowDestructive?: boolean;
  readonly allowUnclassifiedRemote?: boolean;
  readonly approval?: ApprovalMode;
  readonly rules?: readonly PolicyRule[];
}

export type PolicyDecision =
  | { readonly allowed: true; readonly approvalRequired: boolean; readonly reason: string }
  | { readonly allowed: false; readonly reason: string };

export class ExecutionPolicy {
  readonly allowMutations: boolean;
  readonly allowDestructive: boolean;
  readonly allowUnclassifiedRemote: boolean;
  readonly approval: ApprovalMode;
  readonly rules: readonly PolicyRule[];

  constructor(options: ExecutionPolicyOptions = {}) {
    this.allowMutations = options.allowMutations === true;
    this.allowDestructive = options.allowDestructive === true;
    this.allowUnclassifiedRemote = options.allowUnclassifiedRemote === true;
    this.approval = options.approval ?? "never";
    if (!["never", "non-read-only", "all"].includes(this.approval)) {
      throw new TypeError(
        `ExecutionPolicy: approval must be never, non-read-only or all (got ${String(this.approval)})`,
      );
    }
    for (const rule of options.rules ?? []) {
      if (!(rule instanceof PolicyRule))
        throw new TypeError("ExecutionPolicy: rules must be PolicyRule instances");
    }
    this.rules = Object.freeze([...(options.rules ?? [])]);
    Object.freeze(this);
  }

  decide(subject: PolicySubject): PolicyDecision {
    const modeNeedsApproval =
      this.approval === "all" || (this.approval === "non-read-only" && subject.effect !== "read");
    const index = this.rules.findIndex((rule) => rule.matches(subject));
    const rule = index >= 0 ? this.rules[index] : undefined;
    if (rule !== undefined) {
      const label = `rule #${index} (${rule.action} ${rule.operation})`;
      if (rule.action === "deny") return { allowed: false, reason: `denied by ${label}` };
      return {
        allowed: true,
        approvalRequired: rule.action === "require-approval" || modeNeedsApproval,
        reason: `allowed by ${label}`,
      };
    }
    const denied = this.categoryDenial(subject);
    if (denied !== undefined) return { allowed: false, reason: denied };
    return { allowed: true, approvalRequired: modeNeedsApproval, reason: "allowed by category defaults" };
  }

  private categoryDenial(subject: PolicySubject): string | undefined {
    switch (subject.effect) {
      case "read":
        return undefined;
      case "write":
        return this.allowMutations
          ? undefined
          : "write operations need ExecutionPolicy({ allowMutations: true })";
      case "destructive":
        return this.allowDestructive
          ? undefined
          : "destructive operations need ExecutionPolicy({ allowDestructive: true })";
      case "unclassified":
        if (!subject.remote) return undefined;
        return this.allowUnclassifiedRemote
          ? undefined
          : "unclassified remote operations need a local classification (config `effects`) or ExecutionPolicy({ allowUnclassifiedRemote: true })";
    }
  }
}
