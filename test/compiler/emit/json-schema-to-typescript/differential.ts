/**
 * The differential of one document: every pair compared by mutual assignability. For the pairs that
 * differ, the schemas are compared again with every rewrite of reasons.ts applied (they must agree
 * then, or the difference is unexplained), and once per reason with all rewrites but that reason's:
 * a pair's reasons are those without whose rewrite it differs.
 */
import type { JsonSchema } from "../../../../runtime/model/specs.js";
import { checkPairs, type Relation } from "./assignability.js";
import { type Contracts, preparePairs } from "./pairs.js";
import { REASONS, type Reason, rewriteWith } from "./reasons.js";
import { mapSchema } from "./schemas.js";
import { ROOT, theirModule } from "./theirs.js";

const DEFS = "$defs/";

export interface Difference {
  readonly key: string;
  /** How our type relates to json-schema-to-typescript's. */
  readonly relation: Exclude<Relation, "equivalent">;
  /** The reasons without whose rewrite the pair differs; empty when unexplained. */
  readonly reasons: readonly string[];
}

export interface DocumentResult {
  /** Pairs compared: one per shared definition, two per endpoint. */
  readonly compared: number;
  readonly differences: readonly Difference[];
  /** References with constraining siblings in the document (handed over as `allOf`). */
  readonly refsWithSiblings: number;
}

export async function differential(contracts: Contracts): Promise<DocumentResult> {
  const { checked: first, refsWithSiblings } = await compare(contracts, undefined);
  const differing = first.filter((result) => result.relation !== "equivalent");
  const keys = new Set(differing.map((result) => result.key));
  const agreeWith = async (reasons: readonly Reason[], among: ReadonlySet<string>) =>
    among.size === 0
      ? new Set<string>()
      : new Set(
          (await compare(rewritten(restricted(contracts, among), reasons), among)).checked
            .filter((result) => result.relation === "equivalent")
            .map((result) => result.key),
        );
  const explained = await agreeWith(REASONS, keys);
  const reasonsOf = new Map<string, string[]>([...explained].map((key) => [key, []]));
  for (const reason of REASONS) {
    const agreeing = await agreeWith(
      REASONS.filter((other) => other !== reason),
      explained,
    );
    for (const key of explained) if (!agreeing.has(key)) reasonsOf.get(key)!.push(reason.id);
  }
  return {
    compared: first.length,
    refsWithSiblings,
    differences: differing.map(({ key, relation }) => ({
      key,
      relation: relation as Difference["relation"],
      reasons: reasonsOf.get(key) ?? [],
    })),
  };
}

/** Compares the pairs (all, or those in `only`); refuses when either module has a type error. */
async function compare(contracts: Contracts, only: ReadonlySet<string> | undefined) {
  const prepared = preparePairs(contracts);
  const pairs = only === undefined ? prepared.pairs : prepared.pairs.filter((pair) => only.has(pair.key));
  const { checked, diagnostics } = checkPairs(prepared.ours, await theirModule(pairs), ROOT, pairs);
  if (diagnostics.length > 0)
    throw new Error(`the compared modules do not type-check:\n${diagnostics.slice(0, 10).join("\n")}`);
  return { checked, refsWithSiblings: prepared.refsWithSiblings };
}

/** Only what the pairs `keys` need: their definitions and endpoints, and every definition they reach. */
function restricted(contracts: Contracts, keys: ReadonlySet<string>): Contracts {
  const endpoints = contracts.endpoints.filter(
    (endpoint) => keys.has(`${endpoint.key} input`) || keys.has(`${endpoint.key} output`),
  );
  const reached = new Set<string>();
  const pending = [...keys].filter((key) => key.startsWith(DEFS)).map((key) => key.slice(DEFS.length));
  const follow = (schema: JsonSchema) =>
    mapSchema(schema, (node) => {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/$defs/"))
        pending.push(ref.slice("#/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~"));
      return node as JsonSchema;
    });
  for (const endpoint of endpoints) {
    follow(endpoint.inputSchema);
    follow(endpoint.outputSchema);
  }
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = contracts.defs[name];
    if (reached.has(name) || schema === undefined) continue;
    reached.add(name);
    follow(schema);
  }
  return {
    defs: Object.fromEntries([...reached].sort().map((name) => [name, contracts.defs[name]!])),
    endpoints,
  };
}

function rewritten(contracts: Contracts, reasons: readonly Reason[]): Contracts {
  const visit = rewriteWith(reasons);
  const map = (schema: JsonSchema) => mapSchema(schema, visit);
  return {
    defs: Object.fromEntries(Object.entries(contracts.defs).map(([name, schema]) => [name, map(schema)])),
    endpoints: contracts.endpoints.map((endpoint) => ({
      key: endpoint.key,
      inputSchema: map(endpoint.inputSchema),
      outputSchema: map(endpoint.outputSchema),
    })),
  };
}
