/**
 * The pre-transport checks of the execution boundary, docs/runtime/execution-boundary.md steps 2–7:
 * identity, pins, binding readiness, arguments, fields, policy. Each refusal is a CallRefusedError with
 * a stable code.
 */

import { CallRefusedError } from "../errors/errors.js";
import type { RegisteredTool, Registry } from "../load/registry.js";
import type { EndpointSpec, FieldSpec, ToolCall } from "../model/specs.js";
import { missingBindingHint } from "./binding-hint.js";
import type { CallPlan, CallPlans } from "./call-plan.js";
import { detachArguments } from "./detach.js";
import type { Binding } from "./invoker.js";
import { frozenFieldIds, selectFields } from "./projection.js";

export interface PreparedCall {
  /** Detached copy of the call as validated. */
  readonly call: ToolCall;
  readonly route: string;
  readonly registered: RegisteredTool;
  readonly endpoint: EndpointSpec;
  readonly binding: Binding;
  readonly fields: readonly FieldSpec[];
  readonly approvalRequired: boolean;
  readonly policyReason: string;
  /** What the checks read per endpoint, built once (runtime/boundary/call-plan.ts). */
  readonly plan: CallPlan;
}

/** Identity, pins and binding readiness (steps 2–4). */
export function checkIdentity(
  call: ToolCall,
  registry: Registry,
  bindings: ReadonlyMap<string, Binding>,
  plans: CallPlans,
): { registered: RegisteredTool; endpoint: EndpointSpec; binding: Binding; plan: CallPlan } {
  if (
    call === null ||
    typeof call !== "object" ||
    typeof call.tool !== "string" ||
    typeof call.endpoint !== "string"
  ) {
    throw new CallRefusedError("UNKNOWN_TOOL", "A ToolCall needs string `tool` and `endpoint` members.", {});
  }
  const registered = registry.get(call.tool);
  if (registered === undefined) {
    throw new CallRefusedError(
      "UNKNOWN_TOOL",
      `Tool "${call.tool}" is not registered. Plan calls with router.plan() or use the generated bindings.`,
      {
        tool: call.tool,
      },
    );
  }
  const endpoint = registered.endpoints.get(call.endpoint);
  if (endpoint === undefined) {
    throw new CallRefusedError(
      "UNKNOWN_ENDPOINT",
      `Tool "${call.tool}" has no endpoint "${call.endpoint}".`,
      {
        tool: call.tool,
        endpoint: call.endpoint,
      },
    );
  }
  const plan = plans.of(call.tool, call.endpoint, registered, endpoint);
  const route = plan.route;
  if (typeof call.endpointFingerprint !== "string" || typeof call.toolFingerprint !== "string") {
    throw new CallRefusedError(
      "MISSING_FINGERPRINT",
      `${route}: the call must pin endpointFingerprint and toolFingerprint; plan it with router.plan() or use the generated bindings.`,
      { route },
    );
  }
  const current = plan.endpointFingerprint;
  if (call.endpointFingerprint !== current) {
    throw new CallRefusedError(
      "STALE_FINGERPRINT",
      `${route}: the call was planned against endpoint contract ${call.endpointFingerprint}, but the current one is ${current}. Re-plan the call, or regenerate bindings with \`schemarouter compile\`.`,
      { route, expected: current, actual: call.endpointFingerprint },
    );
  }
  if (call.toolFingerprint !== registered.fingerprint) {
    throw new CallRefusedError(
      "STALE_TOOL_FINGERPRINT",
      `${route}: the call was planned against tool contract ${call.toolFingerprint}, but the current one is ${registered.fingerprint}. Re-plan the call, or regenerate bindings with \`schemarouter compile\`.`,
      { route, expected: registered.fingerprint, actual: call.toolFingerprint },
    );
  }
  const binding = bindings.get(call.tool);
  if (binding === undefined) {
    throw new CallRefusedError(
      "BINDING_NOT_READY",
      `${route}: no trusted invoker is bound for tool "${call.tool}". ${missingBindingHint(call.tool, registered.source, registered.tool.execution)}`,
      { route, tool: call.tool },
    );
  }
  if (binding.toolFingerprint !== registered.fingerprint) {
    throw new CallRefusedError(
      "STALE_BINDING",
      `${route}: the invoker was bound to tool contract ${binding.toolFingerprint}, but the tool is now ${registered.fingerprint}. Re-bind it with router.bind().`,
      { route, expected: registered.fingerprint, actual: binding.toolFingerprint },
    );
  }
  return { registered, endpoint, binding, plan };
}

/** Arguments (step 5): declared only, required recomputed here, then JSON Schema. */
export function checkArguments(args: Readonly<Record<string, unknown>>, plan: CallPlan): void {
  const route = plan.route;
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new CallRefusedError("INPUT_SCHEMA_VIOLATION", `${route}: arguments must be an object.`, { route });
  }
  const declared = plan.parameters;
  for (const name of Object.keys(args)) {
    if (!declared.has(name)) {
      throw new CallRefusedError(
        "UNDECLARED_ARGUMENT",
        `${route}: argument "${name}" is not a declared parameter. Declared: ${[...declared.keys()].join(", ") || "(none)"}.`,
        { route, argument: name },
      );
    }
  }
  const required = plan.required;
  for (let position = 0; position < required.length; position++) {
    const name = required[position]!;
    if (!Object.hasOwn(args, name) || args[name] === undefined) {
      throw new CallRefusedError(
        "MISSING_REQUIRED_ARGUMENT",
        `${route}: required argument "${name}" is missing.`,
        {
          route,
          argument: name,
        },
      );
    }
  }
  const violations = plan.inputCheck(args);
  if (violations.length > 0) {
    throw new CallRefusedError(
      "INPUT_SCHEMA_VIOLATION",
      `${route}: arguments do not satisfy the input schema: ${violations.map((v) => v.message).join("; ")}.`,
      { route, violations },
    );
  }
}

/**
 * Runs steps 2–7 (without approval) and returns the prepared call. `argumentsDetached`: the call's
 * arguments are already a copy `detachArguments` made (the governed runner's, or a prepared call's),
 * so they are not copied a second time.
 */
export function prepareCall(
  call: ToolCall,
  registry: Registry,
  bindings: ReadonlyMap<string, Binding>,
  plans: CallPlans,
  argumentsDetached = false,
): PreparedCall {
  const { registered, endpoint, binding, plan } = checkIdentity(call, registry, bindings, plans);
  const route = plan.route;
  let args: Readonly<Record<string, unknown>>;
  try {
    args = argumentsDetached ? call.arguments : detachArguments(call.arguments);
  } catch (error) {
    throw new CallRefusedError(
      "INPUT_SCHEMA_VIOLATION",
      `${route}: arguments must be plain JSON data (they could not be copied).`,
      { route },
      { cause: error },
    );
  }
  // Frozen: invokers and hooks get this same object; none of them can change what was checked.
  // Two literals rather than a conditional spread (no temporary object on every call's path).
  const detached: ToolCall = Object.freeze(
    call.fields === undefined
      ? {
          tool: call.tool,
          endpoint: call.endpoint,
          arguments: args,
          endpointFingerprint: call.endpointFingerprint,
          toolFingerprint: call.toolFingerprint,
        }
      : {
          tool: call.tool,
          endpoint: call.endpoint,
          arguments: args,
          fields: frozenFieldIds(endpoint, call.fields),
          endpointFingerprint: call.endpointFingerprint,
          toolFingerprint: call.toolFingerprint,
        },
  );
  checkArguments(detached.arguments, plan);
  const fields = selectFields(endpoint, detached.fields, route);
  const decision = plan.decision;
  if (!decision.allowed) {
    throw new CallRefusedError(
      "POLICY_DENIED",
      `${route} (${endpoint.effect}) is refused: ${decision.reason}.`,
      {
        route,
        effect: endpoint.effect,
        remote: registered.tool.remote,
        reason: decision.reason,
      },
    );
  }
  return {
    call: detached,
    route,
    registered,
    endpoint,
    binding,
    fields,
    approvalRequired: decision.approvalRequired,
    policyReason: decision.reason,
    plan,
  };
}
