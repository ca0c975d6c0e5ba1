/**
 * Output fields of a root field (docs/sources/graphql.md "Output fields"): every scalar or enum value
 * reachable from the return type through fields without arguments, down to `maxDepth` object levels
 * and at most `maxFields` fields (shallow fields first), as FieldSpecs whose paths are response keys
 * (`*` for list items). ID-typed values are identifiers. The selection contract records the
 * interface and union positions (`__typename`) and, for unions, the member types of each child.
 */
import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isUnionType,
} from "graphql";
import type { FieldSpec, GraphqlSelectionSpec } from "schemarouter/internal";
import { isLeaf, type Report, type SchemaBuilder, selectableFields, unionMembers } from "./json-schemas.js";

export interface OutputLimits {
  readonly maxDepth: number;
  readonly maxFields: number;
}

export interface OutputFields {
  readonly fields: FieldSpec[];
  readonly selection: GraphqlSelectionSpec;
}

interface Pending {
  readonly type: GraphQLOutputType;
  readonly path: readonly string[];
  readonly id: string;
  /** Field names below the root joined by "." ("" for the root value). */
  readonly position: string;
  readonly depth: number;
  readonly field: GraphQLField<unknown, unknown>;
}

export function outputFields(
  root: GraphQLField<unknown, unknown>,
  builder: SchemaBuilder,
  limits: OutputLimits,
  pointer: string,
  report: Report,
): OutputFields {
  const fields: FieldSpec[] = [];
  const abstract = new Set<string>();
  const unions: Record<string, Record<string, string[]>> = {};
  const queue: Pending[] = [
    { type: root.type, path: [root.name], id: "", position: "", depth: 0, field: root },
  ];
  let deeper = false;
  let capped = false;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (isLeaf(next.type)) {
      // A list of scalars is one value: the whole list.
      if (fields.length >= limits.maxFields) {
        capped = true;
        break;
      }
      fields.push(leafField(next, [...next.path], next.depth === 0 ? root.name : next.id, builder));
      continue;
    }
    const { path, id } = withListSteps(next.type, next.path, next.id);
    if (next.depth >= limits.maxDepth) {
      deeper = true;
      continue;
    }
    const named = getNamedType(next.type) as GraphQLNamedType;
    if (isInterfaceType(named) || isUnionType(named)) abstract.add(next.position);
    if (isUnionType(named)) {
      const children: Record<string, string[]> = {};
      for (const [member, kept] of unionMembers(named)) {
        for (const key of kept.keys()) {
          children[key] ??= [];
          children[key].push(member);
        }
      }
      unions[next.position] = children;
    }
    for (const [key, field] of selectableFields(named)) {
      queue.push({
        type: field.type,
        path: [...path, key],
        id: id === "" ? key : `${id}.${key}`,
        position: next.position === "" ? key : `${next.position}.${key}`,
        depth: next.depth + 1,
        field,
      });
    }
  }
  if (deeper)
    report({
      pointer,
      construct: "output-depth",
      level: "partial",
      message: `output fields more than ${limits.maxDepth} object levels below ${root.name} are left out (raise maxDepth to include them).`,
    });
  if (capped)
    report({
      pointer,
      construct: "output-fields",
      level: "partial",
      message: `${root.name} has more output fields than maxFields (${limits.maxFields}) allows; the deepest are left out.`,
    });
  return {
    fields,
    selection: { abstract: [...abstract].sort(), unions: sortedUnions(unions) },
  };
}

/** Appends a `*` step (and `[]` to the ID) for every list level of `type`. */
function withListSteps(
  type: GraphQLOutputType,
  path: readonly string[],
  id: string,
): { path: string[]; id: string } {
  const out = [...path];
  let label = id;
  let current: GraphQLOutputType = type;
  for (;;) {
    if (isNonNullType(current)) current = current.ofType;
    else if (isListType(current)) {
      out.push("*");
      label = `${label}[]`;
      current = current.ofType;
    } else return { path: out, id: label };
  }
}

function leafField(next: Pending, path: string[], id: string, builder: SchemaBuilder): FieldSpec {
  const named = getNamedType(next.type);
  const schema = builder.output(next.type);
  const description = next.field.description ?? undefined;
  return {
    id,
    path,
    ...(path.includes("*") ? { resultPath: path } : {}),
    schema,
    datatype: named.name,
    ...(description ? { description } : {}),
    ...(named.name === "ID" ? { identifier: true } : {}),
  };
}

function sortedUnions(
  unions: Record<string, Record<string, string[]>>,
): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const position of Object.keys(unions).sort()) {
    const children: Record<string, string[]> = {};
    for (const child of Object.keys(unions[position]!).sort())
      children[child] = [...unions[position]![child]!].sort();
    out[position] = children;
  }
  return out;
}
