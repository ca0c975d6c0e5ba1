/**
 * What the differential compares, for one compiled artifact: our declarations exactly as the bindings
 * emit them (compiler/emit/types.ts over the artifact's `$defs` and every endpoint's input and output
 * schema), and the same JSON Schemas as json-schema-to-typescript receives them. Each shared
 * definition and each endpoint input and output is one pair, keyed `$defs/<name>`,
 * `<endpoint> input` or `<endpoint> output`.
 *
 * References to shared definitions are handed to json-schema-to-typescript as `tsType` of our
 * declared type (a `$ref` with constraining siblings as `allOf` of both, its JSON Schema 2020-12
 * meaning), so both sides name the same type for a definition and a difference shows up only in the
 * pair whose own schema causes it, never in every endpoint that uses it.
 */
import ts from "typescript";
import { emitTypes } from "../../../../compiler/emit/types.js";
import type { Artifact } from "../../../../runtime/format/artifact.js";
import type { JsonSchema } from "../../../../runtime/model/specs.js";
import { mapSchema } from "./schemas.js";

/** The namespace the other side's module imports our declarations under. */
export const OURS = "Ours";

export interface Pair {
  readonly key: string;
  /** Our declared type's name in the module `ours`. */
  readonly ours: string;
  /** The schema json-schema-to-typescript gets for this pair. */
  readonly theirs: JsonSchema;
}

export interface Prepared {
  /** Our declarations module (emitTypes output). */
  readonly ours: string;
  readonly pairs: readonly Pair[];
  /** References with constraining siblings, handed over as `allOf` (see above). */
  readonly refsWithSiblings: number;
}

const DEF_PREFIX = "#/$defs/";
/** Keywords that do not constrain a value (a `$ref` with only these siblings is just the reference). */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "deprecated", "default"]);

/** The schemas of one artifact that bindings are typed from. */
export interface Contracts {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  readonly endpoints: readonly {
    readonly key: string;
    readonly inputSchema: JsonSchema;
    readonly outputSchema: JsonSchema;
  }[];
}

export function contractsOf(artifact: Artifact): Contracts {
  return {
    defs: artifact.$defs as Readonly<Record<string, JsonSchema>>,
    endpoints: artifact.tools.flatMap((tool) =>
      tool.endpoints.map((endpoint) => ({
        key: artifact.tools.length === 1 ? endpoint.name : `${tool.name}.${endpoint.name}`,
        inputSchema: endpoint.inputSchema,
        outputSchema: endpoint.outputSchema,
      })),
    ),
  };
}

export function preparePairs({ defs, endpoints }: Contracts): Prepared {
  const requests = endpoints.map((endpoint, index) => ({
    input: endpoint.inputSchema,
    output: endpoint.outputSchema,
    inputName: `Endpoint${index}Input`,
    outputName: `Endpoint${index}Output`,
  }));
  const ours = emitTypes(defs, requests);
  // emitTypes declares the definitions in sorted order, then each endpoint's input and output.
  const declared = declaredNames(ours);
  const defNames = Object.keys(defs).sort();
  if (declared.length !== defNames.length + 2 * requests.length)
    throw new Error(
      `expected ${defNames.length + 2 * requests.length} declarations, found ${declared.length}`,
    );
  const typeOf = new Map(defNames.map((name, index) => [name, declared[index]!]));
  const counter = { refsWithSiblings: 0 };
  const theirs = (schema: JsonSchema): JsonSchema => forThem(schema, typeOf, counter);
  const pairs: Pair[] = defNames.map((name) => ({
    key: `$defs/${name}`,
    ours: typeOf.get(name)!,
    theirs: theirs(defs[name]!),
  }));
  endpoints.forEach((endpoint, index) => {
    const { inputName, outputName } = requests[index]!;
    pairs.push({ key: `${endpoint.key} input`, ours: inputName, theirs: theirs(endpoint.inputSchema) });
    pairs.push({ key: `${endpoint.key} output`, ours: outputName, theirs: theirs(endpoint.outputSchema) });
  });
  return { ours, pairs, refsWithSiblings: counter.refsWithSiblings };
}

function declaredNames(module: string): string[] {
  const file = ts.createSourceFile("ours.ts", module, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return file.statements.flatMap((statement) =>
    ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) ? [statement.name.text] : [],
  );
}

/** A copy of `schema` whose references to shared definitions name our declared types. */
function forThem(
  schema: JsonSchema,
  typeOf: ReadonlyMap<string, string>,
  counter: { refsWithSiblings: number },
): JsonSchema {
  return mapSchema(schema, (node) => {
    const ref = node.$ref;
    if (typeof ref !== "string") return node as JsonSchema;
    const name = ref.startsWith(DEF_PREFIX) ? decodeToken(ref.slice(DEF_PREFIX.length)) : undefined;
    const declared = name === undefined ? undefined : typeOf.get(name);
    if (declared === undefined) throw new Error(`a reference that is not to a shared definition: ${ref}`);
    const { $ref: _, ...rest } = node;
    const target = { tsType: `${OURS}.${declared}` };
    const constraining = Object.keys(rest).some((key) => !ANNOTATIONS.has(key));
    if (constraining) counter.refsWithSiblings += 1;
    return (constraining ? { allOf: [target, rest] } : { ...rest, ...target }) as JsonSchema;
  });
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}
