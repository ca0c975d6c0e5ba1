/**
 * Bounded decision backends (docs/trust-model.md §14). A backend sees only locally generated option IDs
 * with route or field-ID labels (no descriptions, schemas, metadata, arguments or credentials),
 * chooses among candidates that already meet the evidence requirements, and, for an ambiguous field
 * intent, among non-identifier fields only. It never builds ToolCalls. Unknown IDs, duplicates,
 * non-finite or out-of-range scores and malformed results fail closed; low confidence abstains.
 */

import type { ErrorDetailsOf } from "../errors/errors.js";
import type { Registry } from "../load/registry.js";
import { RetrievalError } from "../retrieval/errors.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { RetrievalRequest } from "../retrieval/types.js";
import {
  assemble,
  createContext,
  type Draft,
  evaluate,
  options,
  type Pick,
  type PlanOptions,
  wantsMore,
} from "./core.js";
import { PlanningError } from "./errors.js";
import type { DecisionUse, ExecutionPlan } from "./types.js";

export interface DecisionOption {
  /** Locally generated, e.g. `candidate-2` or `field-3`. */
  readonly id: string;
  /** The route (`tool.endpoint`) or logical field ID the option stands for. */
  readonly label: string;
}

export interface DecisionInput {
  readonly kind: "candidate" | "fields";
  readonly query: string;
  readonly options: readonly DecisionOption[];
  readonly minSelections: number;
  readonly maxSelections: number;
}

/** What a backend returns. `abstain: true` (or confidence below the threshold) keeps the deterministic choice. */
export interface DecisionResult {
  readonly selected?: readonly string[];
  readonly confidence: number;
  readonly scores?: Readonly<Record<string, number>>;
  readonly abstain?: boolean;
}

export interface DecisionBackend {
  decide(input: DecisionInput): unknown;
}

export interface DecisionPlanOptions extends PlanOptions {
  /** Results with a lower confidence abstain (default 0.5). */
  readonly minConfidence?: number;
  /** Eligible candidates offered to the backend (default 5). */
  readonly decisionDepth?: number;
}

const RESULT_KEYS = new Set(["selected", "confidence", "scores", "abstain"]);

function isObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function malformed(
  message: string,
  details: ErrorDetailsOf<"DECISION_MALFORMED"> = {},
): PlanningError<"DECISION_MALFORMED"> {
  return new PlanningError("DECISION_MALFORMED", `Decision backend result: ${message}`, details);
}

function checkScore(value: unknown, name: string): number {
  if (typeof value !== "number") throw malformed(`${name} must be a number.`, { name });
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new PlanningError(
      "DECISION_SCORE_INVALID",
      `Decision backend result: ${name} must be a finite number in [0, 1].`,
      {
        name,
        value: String(value),
      },
    );
  }
  return value;
}

/** Validates a backend result; returns the selected option IDs, or `undefined` to abstain. */
export function validateDecision(
  result: unknown,
  input: DecisionInput,
  minConfidence: number,
): string[] | undefined {
  if (!isObject(result)) throw malformed("expected a plain object.");
  const extra = Object.keys(result).filter((key) => !RESULT_KEYS.has(key));
  if (extra.length > 0) throw malformed(`unexpected keys ${extra.join(", ")}.`, { keys: extra });
  if (result.abstain !== undefined && typeof result.abstain !== "boolean")
    throw malformed("abstain must be a boolean.");
  const offered = new Set(input.options.map((option) => option.id));
  if (result.scores !== undefined) {
    if (!isObject(result.scores)) throw malformed("scores must be an object of option ID to number.");
    for (const [id, score] of Object.entries(result.scores)) {
      if (!offered.has(id)) {
        throw new PlanningError(
          "DECISION_UNKNOWN_OPTION",
          `Decision backend scored an option that was not offered.`,
          { id },
        );
      }
      checkScore(score, `scores.${id}`);
    }
  }
  const confidence = checkScore(result.confidence, "confidence");
  if (result.abstain === true) return undefined;
  const selected = result.selected;
  if (!Array.isArray(selected) || !selected.every((id) => typeof id === "string")) {
    throw malformed("selected must be an array of option IDs.");
  }
  const seen = new Set<string>();
  for (const id of selected as string[]) {
    if (!offered.has(id)) {
      throw new PlanningError(
        "DECISION_UNKNOWN_OPTION",
        "Decision backend selected an option that was not offered.",
        { id },
      );
    }
    if (seen.has(id)) {
      throw new PlanningError("DECISION_DUPLICATE_OPTION", "Decision backend selected an option twice.", {
        id,
      });
    }
    seen.add(id);
  }
  if (seen.size < input.minSelections || seen.size > input.maxSelections) {
    throw malformed(`select from ${input.minSelections} to ${input.maxSelections} options.`, {
      selected: seen.size,
    });
  }
  return confidence < minConfidence ? undefined : [...seen];
}

async function ask(
  backend: DecisionBackend,
  input: DecisionInput,
  minConfidence: number,
): Promise<{ use: DecisionUse; selected: string[] | undefined }> {
  let result: unknown;
  try {
    result = await backend.decide(input);
  } catch (cause) {
    throw new PlanningError(
      "DECISION_BACKEND_FAILED",
      "The decision backend failed; the plan was not built.",
      {},
      { cause },
    );
  }
  const selected = validateDecision(result, input, minConfidence);
  return { use: { used: true, abstained: selected === undefined }, selected };
}

function decisionInput(
  kind: DecisionInput["kind"],
  query: string,
  labels: readonly string[],
  max: number,
): DecisionInput {
  const prefix = kind === "candidate" ? "candidate" : "field";
  return Object.freeze({
    kind,
    query,
    options: Object.freeze(labels.map((label, i) => Object.freeze({ id: `${prefix}-${i + 1}`, label }))),
    minSelections: 1,
    maxSelections: max,
  });
}

/** Like `plan`, with a bounded decision backend choosing among locally eligible options. */
export async function planWithDecision(
  source: Registry | Retriever,
  request: RetrievalRequest,
  backend: DecisionBackend,
  planOptions: DecisionPlanOptions = {},
): Promise<ExecutionPlan> {
  if (backend === null || typeof backend !== "object" || typeof backend.decide !== "function") {
    throw new TypeError("planWithDecision needs a backend with a decide(input) method");
  }
  const minConfidence = planOptions.minConfidence ?? 0.5;
  if (!Number.isFinite(minConfidence) || minConfidence < 0 || minConfidence > 1) {
    throw new RetrievalError("options.minConfidence must be a number from 0 to 1.", {
      field: "minConfidence",
    });
  }
  const depth = planOptions.decisionDepth ?? 5;
  if (!Number.isInteger(depth) || depth < 1 || depth > 50)
    throw new RetrievalError("options.decisionDepth must be an integer from 1 to 50.", {
      field: "decisionDepth",
    });
  const { context, drafts } = createContext(source, request, planOptions);
  const picks: Pick[] = [];
  while (wantsMore(context, picks)) {
    const offered = options(drafts, picks, context.required).slice(0, depth);
    let draft: Draft | undefined = offered[0];
    if (draft === undefined) break;
    let candidateUse: DecisionUse = { used: false };
    if (offered.length > 1) {
      const input = decisionInput(
        "candidate",
        request.query,
        offered.map((d) => d.candidate.route),
        1,
      );
      const answer = await ask(backend, input, minConfidence);
      candidateUse = answer.use;
      if (answer.selected !== undefined) {
        draft = offered[input.options.findIndex((option) => option.id === answer.selected![0])]!;
      }
    }
    let fieldsUse: DecisionUse = { used: false };
    if (draft.selection.mode === "ambiguous-intent-kept-all") {
      const endpoint = context.retriever
        .registry()
        .get(draft.candidate.tool)!
        .endpoints.get(draft.candidate.endpoint)!;
      const kept = new Set(draft.selection.fields);
      const data = endpoint.fields
        .filter((field) => field.identifier !== true && kept.has(field.id))
        .map((f) => f.id);
      if (data.length > 1) {
        const input = decisionInput("fields", request.query, data, data.length);
        const answer = await ask(backend, input, minConfidence);
        fieldsUse = answer.use;
        if (answer.selected !== undefined) {
          const chosen = new Set(
            answer.selected.map((id) => data[input.options.findIndex((o) => o.id === id)]!),
          );
          draft = evaluate(context, draft.candidate, chosen);
        }
      }
    }
    picks.push({ draft, decision: { candidate: candidateUse, fields: fieldsUse } });
  }
  return assemble(context, drafts, picks);
}
