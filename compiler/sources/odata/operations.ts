/**
 * EndpointSpecs of functions and actions (CSDL XML v4.01 §12 "Action and Function", §13.5 "Function
 * Import", §13.4 "Action Import"; URL Conventions §4.5 "Addressing Operations"): unbound ones through
 * their imports, bound ones per entity set of their binding type. Functions are `read` (they have no
 * side effects by the specification); actions are `write` unless the local `effects` classify them.
 */
import type {
  CompatibilityIssue,
  Effect,
  EndpointSpec,
  FieldSpec,
  JsonSchema,
  ODataTypedName,
  ParameterSpec,
} from "schemarouter/internal";
import type { CsdlEntitySet, CsdlImport, CsdlModel, CsdlOperation, CsdlProperty } from "./csdl.js";
import { LITERAL_TYPES, primitiveOf, propertySchema, UnsupportedType } from "./edm-types.js";
import { collectionSchema, keyParameters, propertyFields } from "./entity-sets.js";
import { inputOf } from "./parameters.js";
import { keptProperties, keyOf } from "./structured-types.js";

type Report = (issue: CompatibilityIssue) => void;

/** Parameter names a call can carry (they become argument and binding member names). */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

interface Target {
  readonly name: string;
  readonly resource: string;
  readonly bound?: string;
  readonly keys: readonly ODataTypedName[];
  readonly keyParameters: readonly ParameterSpec[];
  readonly description: string;
  readonly pointer: string;
}

/** Unbound operations addressed by their function or action imports. */
export function importEndpoints(
  model: CsdlModel,
  imports: readonly CsdlImport[],
  report: Report,
): EndpointSpec[] {
  const out: EndpointSpec[] = [];
  for (const entry of imports) {
    const pointer = `/EntityContainer/${entry.kind === "function" ? "FunctionImport" : "ActionImport"}/${entry.name}`;
    const overloads = (model.operations.get(entry.operation) ?? []).filter(
      (operation) => !operation.bound && operation.kind === entry.kind,
    );
    const operation = overloads[0];
    if (operation === undefined) {
      report({
        pointer,
        construct: `${entry.kind}-import`,
        level: "unsupported",
        message: `${entry.kind} import ${entry.name} names ${entry.operation}, which the document does not define unbound; it is not compiled.`,
        leftOut: pointer,
      });
      continue;
    }
    if (overloads.length > 1)
      report({
        pointer,
        construct: "operation-overload",
        level: "partial",
        message: `${entry.operation} has ${overloads.length} unbound overloads; only the first is compiled.`,
      });
    const endpoint = operationEndpoint(
      model,
      operation,
      {
        name: entry.name,
        resource: entry.name,
        keys: [],
        keyParameters: [],
        description: `The OData ${entry.kind} import ${entry.name}`,
        pointer,
      },
      operation.parameters,
      report,
    );
    if (endpoint !== undefined) out.push(endpoint);
  }
  return out;
}

/** Bound operations, once per entity set whose entity type is the binding parameter's type. */
export function boundEndpoints(
  model: CsdlModel,
  sets: readonly CsdlEntitySet[],
  report: Report,
): EndpointSpec[] {
  const out: EndpointSpec[] = [];
  for (const qualified of [...model.operations.keys()].sort()) {
    for (const operation of model.operations.get(qualified)!.filter((candidate) => candidate.bound)) {
      const [binding, ...rest] = operation.parameters;
      const matching = sets.filter((set) => binding !== undefined && set.entityType === binding.type);
      if (binding === undefined || matching.length === 0) {
        report({
          pointer: operation.pointer,
          construct: `bound-${operation.kind}`,
          level: "unsupported",
          message: `bound ${operation.kind} ${qualified} is bound to ${binding?.type ?? "nothing"}, which no entity set serves; it is not compiled.`,
          leftOut: operation.pointer,
        });
        continue;
      }
      for (const set of matching) {
        const pointer = `${operation.pointer}/${set.name}`;
        let keys: ODataTypedName[] = [];
        let keyParams: ParameterSpec[] = [];
        if (!binding.collection) {
          const type = model.structured.get(set.entityType)!;
          const addressed = keyParameters(model, type, keptProperties(model, type, report), pointer, report);
          if (addressed === undefined) continue;
          keys = addressed.keys;
          keyParams = addressed.parameters;
        }
        const endpoint = operationEndpoint(
          model,
          operation,
          {
            name: `${set.name}_${operation.name}`,
            resource: set.name,
            bound: qualified,
            keys,
            keyParameters: keyParams,
            description: `The OData ${operation.kind} ${qualified} bound to ${binding.collection ? `the entity set ${set.name}` : `one entity of ${set.name} (by key)`}`,
            pointer,
          },
          rest,
          report,
        );
        if (endpoint !== undefined) out.push(endpoint);
      }
    }
  }
  return out;
}

function operationEndpoint(
  model: CsdlModel,
  operation: CsdlOperation,
  target: Target,
  parameters: readonly CsdlProperty[],
  report: Report,
): EndpointSpec | undefined {
  const leftOut = (construct: string, message: string): undefined => {
    report({ pointer: target.pointer, construct, level: "unsupported", message, leftOut: target.pointer });
    return undefined;
  };
  const specs: ParameterSpec[] = [...target.keyParameters];
  const typed: ODataTypedName[] = [];
  for (const parameter of parameters) {
    if (!PARAMETER_NAME.test(parameter.name) || specs.some((spec) => spec.name === parameter.name))
      return leftOut(
        "operation-parameter",
        `${operation.qualified}: parameter ${JSON.stringify(parameter.name)} is not a plain identifier or repeats a key property; the operation is not compiled.`,
      );
    let schema: JsonSchema;
    try {
      schema = propertySchema(model, parameter);
    } catch (error) {
      if (!(error instanceof UnsupportedType)) throw error;
      return leftOut(
        "operation-parameter",
        `${operation.qualified}: parameter ${parameter.name} has type ${error.type}, which schemarouter does not map; the operation is not compiled.`,
      );
    }
    const primitive = primitiveOf(model, parameter.type);
    const inline = !parameter.collection && primitive !== undefined && LITERAL_TYPES.has(primitive);
    const enumeration = !parameter.collection && primitive === undefined && model.enums.has(parameter.type);
    if (operation.kind === "function" && !inline && !enumeration)
      return leftOut(
        "operation-parameter",
        `${operation.qualified}: parameter ${parameter.name} (${parameter.collection ? "a collection" : parameter.type}) has no URL literal form schemarouter writes; the function is not compiled.`,
      );
    specs.push({
      name: parameter.name,
      location: operation.kind === "function" ? "query" : "body",
      required: !parameter.nullable,
      schema,
      description: `${parameter.name} (${parameter.collection ? `Collection(${parameter.type})` : parameter.type}).`,
    });
    typed.push({ name: parameter.name, type: primitive ?? parameter.type });
  }
  const returns = operation.returnType;
  let outputSchema: JsonSchema = { type: "null" };
  let fields: FieldSpec[] = [];
  let collection = false;
  if (returns !== undefined) {
    let item: JsonSchema;
    try {
      item = propertySchema(model, { ...returns, collection: false, nullable: true });
    } catch (error) {
      if (!(error instanceof UnsupportedType)) throw error;
      return leftOut(
        "return-type",
        `${operation.qualified} returns ${error.type}, which schemarouter does not map; it is not compiled.`,
      );
    }
    const structured = model.structured.get(returns.type);
    const kept = structured === undefined ? [] : keptProperties(model, structured, report);
    const key = structured === undefined || structured.kind !== "entity" ? [] : keyOf(model, structured);
    collection = returns.collection;
    if (collection) {
      outputSchema = collectionSchema(item);
      fields =
        structured === undefined
          ? [valueField(["value"], returns)]
          : propertyFields(kept, key, ["value", "*"]);
    } else if (structured !== undefined) {
      outputSchema = item;
      fields = propertyFields(kept, key, []);
    } else {
      // A primitive or enumeration result is wrapped: {"value": …} (OData JSON §11 "Individual Property").
      outputSchema = {
        type: "object",
        required: ["value"],
        properties: { "@odata.context": { type: "string" }, value: item },
      };
      fields = [valueField(["value"], returns)];
    }
  }
  const effect: Effect = operation.kind === "function" ? "read" : "write";
  return {
    name: target.name,
    description: `${target.description} (${operation.qualified})${returns === undefined ? "" : `, returning ${returns.collection ? `Collection(${returns.type})` : returns.type}`}.`,
    effect,
    ...inputOf(specs),
    outputSchema,
    fields,
    execution: {
      kind: "odata",
      operation: operation.kind,
      resource: target.resource,
      keys: target.keys,
      parameters: typed,
      ...(target.bound !== undefined ? { bound: target.bound } : {}),
      filterable: [],
      collection,
    },
    metadata: { operation: operation.qualified },
  };
}

function valueField(path: readonly string[], returns: CsdlProperty): FieldSpec {
  return {
    id: "value",
    path,
    datatype: returns.collection ? `Collection(${returns.type})` : returns.type,
    description: "The operation's result.",
  };
}
