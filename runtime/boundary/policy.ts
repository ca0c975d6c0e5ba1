/**
 * Local execution authority (docs/trust-model.md §11, §18 and §25; docs/runtime/execution-boundary.md
 * step 7): category defaults that block remote mutation, destructive and unclassified remote
 * operations, plus ordered PolicyRules from trusted local code.
 * Nothing a model or a remote schema produces can construct or change a policy: rules must be
 * PolicyRule instances, options are checked key by key, and both objects are frozen.
 */
import { type ErrorDetailsOf, SchemaRouterError } from "../errors/errors.js";
import { EFFECTS, type Effect } from "../model/specs.js";

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
  /**
   * Glob over the route `tool.endpoint`, split at its first `.` into a tool glob and an endpoint glob
   * that are matched separately against the subject's tool and endpoint names, so `gh.*` covers every
   * endpoint of tool `gh` whatever its name (dots and slashes included). In both globs `*` and `**`
   * match any characters. A pattern without a `.` is matched against the whole route (`*` within a
   * dot-separated segment, `**` across them), so `**` matches every call and `*` none.
   */
  readonly operation: string;
  readonly effects?: readonly Effect[];
  readonly remote?: boolean;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly unclassified?: boolean;
}

export const MAX_PATTERN_LENGTH = 256;
export const MAX_PATTERN_WILDCARDS = 16;
const PATTERN_CHARS = /^[A-Za-z0-9_\-./:{}*]+$/;
const ACTIONS: readonly PolicyAction[] = ["allow", "deny", "require-approval"];
const APPROVAL_MODES: readonly ApprovalMode[] = ["never", "non-read-only", "all"];
const RULE_KEYS = ["action", "operation", "effects", "remote", "readOnly", "destructive", "unclassified"];
const POLICY_KEYS = ["allowMutations", "allowDestructive", "allowUnclassifiedRemote", "approval", "rules"];
const PREDICATES = ["remote", "readOnly", "destructive", "unclassified"] as const;

function invalid(
  message: string,
  details: ErrorDetailsOf<"POLICY_INVALID"> = {},
): SchemaRouterError<"POLICY_INVALID"> {
  return new SchemaRouterError("POLICY_INVALID", message, details);
}

function assertKnownKeys(owner: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw invalid(`${owner}: unknown option "${key}". Known options: ${known.join(", ")}.`, {
        option: key,
      });
    }
  }
}

type Token = { readonly kind: "literal"; readonly char: string } | { readonly kind: "one" | "any" };

/** Bounded glob: validated characters and length, at most MAX_PATTERN_WILDCARDS wildcards. */
function compileGlob(pattern: string): readonly Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char !== "*") tokens.push({ kind: "literal", char });
    else if (pattern[i + 1] === "*") {
      tokens.push({ kind: "any" });
      i++;
    } else tokens.push({ kind: "one" });
  }
  return tokens;
}

/**
 * A compiled operation pattern: separate tool and endpoint globs when the pattern names a tool
 * (it has a `.`), or one glob over the whole `tool.endpoint` route when it does not.
 */
type CompiledPattern =
  | { readonly kind: "split"; readonly tool: readonly Token[]; readonly endpoint: readonly Token[] }
  | { readonly kind: "route"; readonly tokens: readonly Token[] };

function compilePattern(pattern: string): CompiledPattern {
  const dot = pattern.indexOf(".");
  if (dot === -1) return { kind: "route", tokens: compileGlob(pattern) };
  return {
    kind: "split",
    tool: compileGlob(pattern.slice(0, dot)),
    endpoint: compileGlob(pattern.slice(dot + 1)),
  };
}

function wildcards(compiled: CompiledPattern): number {
  const tokens = compiled.kind === "split" ? [...compiled.tool, ...compiled.endpoint] : compiled.tokens;
  return tokens.filter((token) => token.kind !== "literal").length;
}

function patternMatches(compiled: CompiledPattern, tool: string, endpoint: string): boolean {
  if (compiled.kind === "route") return globMatches(compiled.tokens, `${tool}.${endpoint}`, false);
  return globMatches(compiled.tool, tool, true) && globMatches(compiled.endpoint, endpoint, true);
}

/**
 * Matches without backtracking (dynamic programming over pattern × text, O(p·t)), so no pattern
 * can make matching slow. `any` (`**`) matches anything; `one` (`*`) never crosses a `.` unless
 * `oneCrossesDots` (tool and endpoint globs, where a dot is just a character of the name).
 */
function globMatches(tokens: readonly Token[], text: string, oneCrossesDots: boolean): boolean {
  let row: boolean[] = new Array<boolean>(text.length + 1).fill(false);
  row[0] = true;
  for (const token of tokens) {
    const next: boolean[] = new Array<boolean>(text.length + 1).fill(false);
    if (token.kind === "literal") {
      for (let j = 0; j < text.length; j++) if (row[j] && text[j] === token.char) next[j + 1] = true;
    } else {
      for (let j = 0; j <= text.length; j++) {
        next[j] =
          row[j]! ||
          (j > 0 && next[j - 1]! && (token.kind === "any" || oneCrossesDots || text[j - 1] !== "."));
      }
    }
    row = next;
  }
  return row[text.length]!;
}

export class PolicyRule {
  readonly action: PolicyAction;
  readonly operation: string;
  readonly effects: readonly Effect[] | undefined;
  readonly remote: boolean | undefined;
  readonly readOnly: boolean | undefined;
  readonly destructive: boolean | undefined;
  readonly unclassified: boolean | undefined;
  readonly #pattern: CompiledPattern;

  constructor(options: PolicyRuleOptions) {
    if (options === null || typeof options !== "object")
      throw invalid("PolicyRule: options must be an object.");
    assertKnownKeys("PolicyRule", options, RULE_KEYS);
    if (!ACTIONS.includes(options.action)) {
      throw invalid(
        `PolicyRule: action must be allow, deny or require-approval (got ${String(options.action)}).`,
        { option: "action" },
      );
    }
    const pattern = options.operation;
    if (typeof pattern !== "string" || pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
      throw invalid(
        `PolicyRule: operation must be a non-empty glob of at most ${MAX_PATTERN_LENGTH} characters.`,
        { option: "operation" },
      );
    }
    if (!PATTERN_CHARS.test(pattern) || /\*{3,}/.test(pattern)) {
      throw invalid(
        `PolicyRule: operation "${pattern}" may contain only letters, digits, _ - . / : { } and * or ** wildcards.`,
        { option: "operation" },
      );
    }
    const compiled = compilePattern(pattern);
    if (wildcards(compiled) > MAX_PATTERN_WILDCARDS) {
      throw invalid(`PolicyRule: operation "${pattern}" has more than ${MAX_PATTERN_WILDCARDS} wildcards.`, {
        option: "operation",
      });
    }
    if (options.effects !== undefined) {
      if (
        !Array.isArray(options.effects) ||
        options.effects.length === 0 ||
        options.effects.some((effect) => !EFFECTS.includes(effect))
      ) {
        throw invalid(`PolicyRule: effects must be a non-empty list of ${EFFECTS.join(", ")}.`, {
          option: "effects",
        });
      }
    }
    for (const key of PREDICATES) {
      const value: unknown = options[key];
      if (value !== undefined && typeof value !== "boolean") {
        throw invalid(`PolicyRule: ${key} must be true or false when given.`, { option: key });
      }
    }
    // A rule no effect can satisfy (readOnly with unclassified, effects: ["write"] with readOnly, …)
    // would never match: refuse it rather than let it silently do nothing.
    const given = (["effects", ...PREDICATES] as const).filter(
      (key) => key !== "remote" && options[key] !== undefined,
    );
    if (given.length > 1 && !EFFECTS.some((effect) => effectSatisfies(options, effect))) {
      throw invalid(
        `PolicyRule: ${given.map((key) => `${key}: ${JSON.stringify(options[key])}`).join(", ")} contradict each other, so the rule "${pattern}" could never match. Keep one of them.`,
        { option: given[given.length - 1]! },
      );
    }
    this.action = options.action;
    this.operation = pattern;
    this.effects = options.effects ? Object.freeze([...options.effects]) : undefined;
    this.remote = options.remote;
    this.readOnly = options.readOnly;
    this.destructive = options.destructive;
    this.unclassified = options.unclassified;
    this.#pattern = Object.freeze(compiled);
    Object.freeze(this);
  }

  matches(subject: PolicySubject): boolean {
    if (!patternMatches(this.#pattern, subject.tool, subject.endpoint)) return false;
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

/** Whether a call of `effect` passes the rule's effect predicates (remote aside). */
function effectSatisfies(options: PolicyRuleOptions, effect: Effect): boolean {
  if (options.effects !== undefined && !options.effects.includes(effect)) return false;
  if (options.readOnly !== undefined && options.readOnly !== (effect === "read")) return false;
  if (options.destructive !== undefined && options.destructive !== (effect === "destructive")) return false;
  if (options.unclassified !== undefined && options.unclassified !== (effect === "unclassified"))
    return false;
  return true;
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
    if (options === null || typeof options !== "object")
      throw invalid("ExecutionPolicy: options must be an object.");
    assertKnownKeys("ExecutionPolicy", options, POLICY_KEYS);
    for (const key of ["allowMutations", "allowDestructive", "allowUnclassifiedRemote"] as const) {
      if (options[key] !== undefined && typeof options[key] !== "boolean") {
        throw invalid(`ExecutionPolicy: ${key} must be true or false.`, { option: key });
      }
    }
    this.allowMutations = options.allowMutations === true;
    this.allowDestructive = options.allowDestructive === true;
    this.allowUnclassifiedRemote = options.allowUnclassifiedRemote === true;
    this.approval = options.approval ?? "never";
    if (!APPROVAL_MODES.includes(this.approval)) {
      throw invalid(
        `ExecutionPolicy: approval must be never, non-read-only or all (got ${String(this.approval)}).`,
        { option: "approval" },
      );
    }
    if (options.rules !== undefined && !Array.isArray(options.rules)) {
      throw invalid("ExecutionPolicy: rules must be an array of PolicyRule instances.", { option: "rules" });
    }
    for (const rule of options.rules ?? []) {
      if (!(rule instanceof PolicyRule)) {
        throw invalid("ExecutionPolicy: rules must be PolicyRule instances (built by local code).", {
          option: "rules",
        });
      }
    }
    this.rules = Object.freeze([...(options.rules ?? [])]);
    Object.freeze(this);
  }

  /** First matching rule wins; without a match, the category defaults decide. */
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
