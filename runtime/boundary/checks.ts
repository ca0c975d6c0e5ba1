/**
 * The pre-transport checks of the execution boundary, docs/runtime/execution-boundary.md steps 2–7:
 * identity, pins, binding readiness, arguments, fields, policy. Each refusal is a CallRefusedError with
 * a stable code.
 */

import { CallRefusedError } from "../errors/errors.js";
import { effectiveSchema, type RegisteredTool, type Registry } from "../load/registry.js";
import type { EndpointSpec, FieldSpec, JsonSchema, ToolCall } from "../model/specs.js";
import { missingBindingHint } from "./binding-hint.js";
import { detachArguments } from "./detach.js";
import type { Binding } from "./invoker.js";
import type { ExecutionPolicy } from "./policy.js";
import { frozenFieldIds, selectFields } from "./projection.js";
import type { ValidatorSet } from "./validation.js";

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
}

/** Self-contained input/output schemas of endpoints, built once per registered tool (per router). */
export class ContractSchemas {
  private readonly cache = new WeakMap<RegisteredTool, Map<EndpointSpec, EndpointSchemas>>();

  of(registered: RegisteredTool, endpoint: EndpointSpec, which: "input" | "output"): JsonSchema {
    let perTool = this.cache.get(registered);
    if (perTool === undefined) {
      perTool = new Map();
      this.cache.set(registered, perTool);
    }
    let schemas = perTool.get(endpoint);
    if (schemas === undefined) {
      schemas = {};
      perTool.set(endpoint, schemas);
    }
    schemas[which] ??= effectiveSchema(
      which === "input" ? endpoint.inputSchema : endpoint.outputSchema,
      registered.defs,
    );
    return schemas[which];
  }
}

interface EndpointSchemas {
  input?: JsonSchema;
  output?: JsonSchema;
}

/** Per-endpoint lookups the checks use on every call, built once per (frozen) contract. */
interface EndpointIndex {
  readonly parameters: ReadonlyMap<string, EndpointSpec["parameters"][number]>;
}

const endpointIndexes = new WeakMap<EndpointSpec, EndpointIndex>();

function indexOf(endpoint: EndpointSpec): EndpointIndex {
  let index = endpointIndexes.get(endpoint);
  if (index === undefined) {
    index = { parameters: new Map(endpoint.parameters.map((parameter) => [parameter.name, parameter])) };
    endpointIndexes.set(endpoint, index);
  }
  return index;
}

/** Identity, pins and binding readiness (steps 2–4). */
export function checkIdentity(
  call: ToolCall,
  registry: Registry,
  bindings: ReadonlyMap<string, Binding>,
): { registered: RegisteredTool; endpoint: EndpointSpec; binding: Binding; route: string } {
  if (
    call === null ||
    typeof call !== "object" ||
    typeof call.tool !== "string" ||
    typeof call.endpoint !== "string"
  ) {
    throw new CallRefusedError("UNKNOWN_TOOL", "A ToolCall needs string `tool` and `endpoint` members.", {});
  }
  const route = `${call.tool}.${call.endpoint}`;
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
  if (typeof call.endpointFingerprint !== "string" || typeof call.toolFingerprint !== "string") {
    throw new CallRefusedError(
      "MISSING_FINGERPRINT",
      `${route}: the call must pin endpointFingerprint and toolFingerprint; plan it with router.plan() or use the generated bindings.`,
      { route },
    );
  }
  const current = registered.endpointFingerprints.get(endpoint.name)!;
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
  return { registered, endpoint, binding, route };
}

/** Arguments (step 5): declared only, required recomputed here, then JSON Schema. */
export function checkArguments(
  args: Readonly<Record<string, unknown>>,
  registered: RegisteredTool,
  endpoint: EndpointSpec,
  route: string,
  validators: ValidatorSet,
  schemas: ContractSchemas,
): void {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new CallRefusedError("INPUT_SCHEMA_VIOLATION", `${route}: arguments must be an object.`, { route });
  }
  const declared = indexOf(endpoint).parameters;
  for (const name of Object.keys(args)) {
    if (!declared.has(name)) {
      throw new CallRefusedError(
        "UNDECLARED_ARGUMENT",
        `${route}: argument "${name}" is not a declared parameter. Declared: ${[...declared.keys()].join(", ") || "(none)"}.`,
        { route, argument: name },
      );
    }
  }
  for (const parameter of endpoint.parameters) {
    if (parameter.required && (!Object.hasOwn(args, parameter.name) || args[parameter.name] === undefined)) {
      throw new CallRefusedError(
        "MISSING_REQUIRED_ARGUMENT",
        `${route}: required argument "${parameter.name}" is missing.`,
        {
          route,
          argument: parameter.name,
        },
      );
    }
  }
  const violations = validators.validate(schemas.of(registered, endpoint, "input"), args);
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
  policy: ExecutionPolicy,
  validators: ValidatorSet,
  schemas: ContractSchemas,
  argumentsDetached = false,
): PreparedCall {
  const { registered, endpoint, binding, route } = checkIdentity(call, registry, bindings);
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
  checkArguments(detached.arguments, registered, endpoint, route, validators, schemas);
  const fields = selectFields(endpoint, detached.fields, route);
  const decision = policy.decide({
    tool: call.tool,
    endpoint: call.endpoint,
    effect: endpoint.effect,
    remote: registered.tool.remote,
  });
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
  };
}
