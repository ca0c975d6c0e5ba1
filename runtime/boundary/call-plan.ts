/**
 * The per-endpoint call plan of the execution boundary (docs/runtime/execution-boundary.md, "Call
 * plans"): everything the checks of steps 2–7 and 16–17 read that depends only on the registered
 * (frozen) tool, its (frozen) endpoint contract and the executor's (frozen) policy, computed once on
 * the first call of that endpoint instead of looked up per call. A plan never decides anything a call
 * brings: pins, arguments, fields and the binding are still checked on every call against it.
 *
 * A plan is kept per executor and keyed by the endpoint contract object; it is used only while the
 * registry still holds the very RegisteredTool it was built from under the same name. A reload or a
 * replaced contract registers new objects, so a plan built for an old lock never serves a new one; a
 * new policy means a new router and so a new executor with no plans.
 */

import { effectiveSchema, type RegisteredTool } from "../load/registry.js";
import type { EndpointSpec, JsonSchema } from "../model/specs.js";
import type { ExecutionPolicy, PolicyDecision } from "./policy.js";
import type { SchemaCheck, ValidatorSet } from "./validation.js";

type Parameter = EndpointSpec["parameters"][number];

export class CallPlan {
  /** `tool.endpoint`, the route every refusal names. */
  readonly route: string;
  /** The endpoint's current contract fingerprint (what a call's pin must equal). */
  readonly endpointFingerprint: string;
  readonly parameters: ReadonlyMap<string, Parameter>;
  /** Names of the required parameters, in declaration order. */
  readonly required: readonly string[];
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  /** The policy's decision for this endpoint: a pure function of the frozen policy and contract. */
  readonly decision: PolicyDecision;
  readonly #validators: ValidatorSet;
  #inputCheck: SchemaCheck | undefined;
  #outputCheck: SchemaCheck | undefined;

  constructor(
    readonly tool: string,
    readonly endpointName: string,
    readonly registered: RegisteredTool,
    readonly endpoint: EndpointSpec,
    policy: ExecutionPolicy,
    validators: ValidatorSet,
  ) {
    this.route = `${tool}.${endpointName}`;
    this.endpointFingerprint = registered.endpointFingerprints.get(endpointName)!;
    this.parameters = new Map(endpoint.parameters.map((parameter) => [parameter.name, parameter]));
    this.required = Object.freeze(
      endpoint.parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    );
    this.inputSchema = effectiveSchema(endpoint.inputSchema, registered.defs);
    this.outputSchema = effectiveSchema(endpoint.outputSchema, registered.defs);
    this.decision = policy.decide({
      tool,
      endpoint: endpointName,
      effect: endpoint.effect,
      remote: registered.tool.remote,
    });
    this.#validators = validators;
  }

  /** The compiled input check (compiled on first use: a call refused before it never compiles it). */
  get inputCheck(): SchemaCheck {
    this.#inputCheck ??= this.#validators.checkOf(this.inputSchema);
    return this.#inputCheck;
  }

  /** The compiled raw-output check (compiled on the first response). */
  get outputCheck(): SchemaCheck {
    this.#outputCheck ??= this.#validators.checkOf(this.outputSchema);
    return this.#outputCheck;
  }
}

/** The call plans of one executor. */
export class CallPlans {
  readonly #plans = new WeakMap<EndpointSpec, CallPlan>();

  constructor(
    private readonly policy: ExecutionPolicy,
    private readonly validators: ValidatorSet,
  ) {}

  /**
   * The plan for `endpoint`, named `endpointName` in `registered`, registered as `tool`: the one built
   * before when it was built from these very objects and names, a new one otherwise.
   */
  of(tool: string, endpointName: string, registered: RegisteredTool, endpoint: EndpointSpec): CallPlan {
    const known = this.#plans.get(endpoint);
    if (
      known !== undefined &&
      known.registered === registered &&
      known.tool === tool &&
      known.endpointName === endpointName
    ) {
      return known;
    }
    const plan = new CallPlan(tool, endpointName, registered, endpoint, this.policy, this.validators);
    this.#plans.set(endpoint, plan);
    return plan;
  }
}
