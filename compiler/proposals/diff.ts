/**
 * What changed between two proposals for the same source (docs/sources/proposals.md, "Re-proposing"),
 * classified like a contract diff: an addition is `compatible`, a removal or a narrowing is `breaking`,
 * a new mutation is `security-review`, and a quote that moved or changed words is `evidence`.
 */
import type { ProposedEndpoint, SchemaProposal } from "../sources/proposal/proposal.js";

export type ProposalChangeCategory = "evidence" | "compatible" | "breaking" | "security-review";

export interface ProposalChange {
  readonly category: ProposalChangeCategory;
  /** `endpoint`, `endpoint.parameter` or `endpoint.field`. */
  readonly at: string;
  readonly message: string;
}

const RANK: Readonly<Record<ProposalChangeCategory, number>> = {
  evidence: 0,
  compatible: 1,
  breaking: 2,
  "security-review": 3,
};

export function diffProposals(before: SchemaProposal, after: SchemaProposal): ProposalChange[] {
  const changes: ProposalChange[] = [];
  const old = new Map(before.endpoints.map((e) => [e.name, e]));
  const now = new Map(after.endpoints.map((e) => [e.name, e]));
  for (const [name, endpoint] of now) {
    const previous = old.get(name);
    if (previous === undefined) {
      changes.push({
        category: endpoint.method === "get" ? "compatible" : "security-review",
        at: name,
        message: `new endpoint ${endpoint.method.toUpperCase()} ${endpoint.path}`,
      });
      continue;
    }
    changes.push(...endpointChanges(previous, endpoint));
  }
  for (const [name, endpoint] of old)
    if (!now.has(name))
      changes.push({
        category: "breaking",
        at: name,
        message: `endpoint ${endpoint.method.toUpperCase()} ${endpoint.path} is no longer grounded`,
      });
  return changes.sort(
    (a, b) => RANK[b.category] - RANK[a.category] || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0),
  );
}

function endpointChanges(before: ProposedEndpoint, after: ProposedEndpoint): ProposalChange[] {
  const at = after.name;
  const changes: ProposalChange[] = [];
  if (before.method !== after.method || before.path !== after.path)
    changes.push({
      category: after.method === "get" ? "breaking" : "security-review",
      at,
      message: `${before.method.toUpperCase()} ${before.path} became ${after.method.toUpperCase()} ${after.path}`,
    });
  if (before.list !== after.list)
    changes.push({
      category: "breaking",
      at,
      message: `the response is ${after.list ? "now" : "no longer"} a list`,
    });
  if (before.quote.text !== after.quote.text)
    changes.push({ category: "evidence", at, message: `quote changed to "${after.quote.text}"` });
  const params = new Map(before.parameters.map((p) => [p.name, p]));
  for (const parameter of after.parameters) {
    const previous = params.get(parameter.name);
    const here = `${at}.${parameter.name}`;
    if (previous === undefined)
      changes.push({
        category: parameter.required ? "breaking" : "compatible",
        at: here,
        message: `new ${parameter.required ? "required" : "optional"} parameter`,
      });
    else if (previous.type !== parameter.type || previous.in !== parameter.in)
      changes.push({
        category: "breaking",
        at: here,
        message: `parameter is now ${parameter.type} in ${parameter.in} (was ${previous.type} in ${previous.in})`,
      });
    else if (!previous.required && parameter.required)
      changes.push({ category: "breaking", at: here, message: "parameter is now required" });
    else if (previous.quote.text !== parameter.quote.text)
      changes.push({ category: "evidence", at: here, message: `quote changed to "${parameter.quote.text}"` });
  }
  for (const parameter of before.parameters)
    if (!after.parameters.some((p) => p.name === parameter.name))
      changes.push({
        category: "breaking",
        at: `${at}.${parameter.name}`,
        message: "parameter is no longer grounded",
      });
  const fields = new Map(before.fields.map((f) => [f.name, f]));
  for (const field of after.fields) {
    const previous = fields.get(field.name);
    const here = `${at}.${field.name}`;
    if (previous === undefined) changes.push({ category: "compatible", at: here, message: "new field" });
    else if (previous.type !== field.type)
      changes.push({
        category: "breaking",
        at: here,
        message: `field is now ${field.type} (was ${previous.type})`,
      });
    else if (previous.quote.text !== field.quote.text)
      changes.push({ category: "evidence", at: here, message: `quote changed to "${field.quote.text}"` });
  }
  for (const field of before.fields)
    if (!after.fields.some((f) => f.name === field.name))
      changes.push({
        category: "breaking",
        at: `${at}.${field.name}`,
        message: "field is no longer grounded",
      });
  return changes;
}

export function worstChange(changes: readonly ProposalChange[]): ProposalChangeCategory | "identical" {
  return changes.reduce<ProposalChangeCategory | "identical">(
    (worst, change) =>
      worst === "identical" || RANK[change.category] > RANK[worst] ? change.category : worst,
    "identical",
  );
}

export function formatProposalDiff(changes: readonly ProposalChange[]): string {
  if (changes.length === 0) return "No change from the previous proposal.\n";
  return `Changes from the previous proposal (${worstChange(changes)}):\n${changes
    .map((c) => `  ${c.category.padEnd(15)} ${c.at}: ${c.message}\n`)
    .join("")}`;
}
