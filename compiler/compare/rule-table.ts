/**
 * The rule table of RULES_VERSION: schema rules that exist on both sides (with opposite meaning) and
 * rules that exist in one place only, each with its category and a one-line summary.
 */
import type { ChangeSeverity } from "./rules.js";

export type Side = "request" | "response";
type Pair = readonly [ChangeSeverity, string];

const C = "compatible";
const B = "breaking";
const S = "security-review";

/**
 * Schema rules that exist on both sides, with opposite meaning: the request side breaks when the set
 * of accepted values shrinks, the response side breaks when the set of produced values grows.
 */
export const SIDE_RULES = {
  "property.required-added": {
    request: [B, "A new required property: existing callers do not send it."],
    response: [C, "A new property in the output: the client never relied on it."],
  },
  "property.optional-added": {
    request: [C, "A new optional property: existing calls stay valid."],
    response: [C, "A new optional property in the output: the client never relied on it."],
  },
  "property.removed": {
    request: [B, "A property callers may send is gone: their calls are refused."],
    response: [B, "A property the client may read is gone."],
  },
  "property.became-required": {
    request: [B, "An optional property became required."],
    response: [C, "An optional output property is now always present."],
  },
  "property.became-optional": {
    request: [C, "A required property became optional."],
    response: [B, "An output property the client may rely on is no longer guaranteed."],
  },
  "type.narrowed": {
    request: [B, "Fewer JSON types are accepted."],
    response: [C, "Fewer JSON types are produced."],
  },
  "type.widened": {
    request: [C, "More JSON types are accepted."],
    response: [B, "The output may carry a JSON type the client does not handle."],
  },
  "type.changed": {
    request: [B, "The accepted JSON types changed incomparably."],
    response: [B, "The produced JSON types changed incomparably."],
  },
  "type.nullable-added": {
    request: [C, "null is now accepted."],
    response: [B, "The output may now be null."],
  },
  "type.nullable-removed": {
    request: [B, "null is no longer accepted."],
    response: [C, "The output is no longer null."],
  },
  "enum.added": {
    request: [B, "Values are now restricted to an enumeration."],
    response: [C, "Output values are now restricted to an enumeration."],
  },
  "enum.removed": {
    request: [C, "The enumeration restriction was lifted."],
    response: [B, "Output values are no longer restricted to the enumeration."],
  },
  "enum.value-added": {
    request: [C, "An enumeration accepts a new value."],
    response: [B, "The output may carry an enumeration value the client does not know."],
  },
  "enum.value-removed": {
    request: [B, "An enumeration value callers may send is no longer accepted."],
    response: [C, "The output no longer carries an enumeration value."],
  },
  "constraint.added": {
    request: [B, "A new validation constraint (pattern, format, bound, const…) restricts accepted values."],
    response: [C, "A new validation constraint restricts output values."],
  },
  "constraint.removed": {
    request: [C, "A validation constraint was removed: more values are accepted."],
    response: [B, "A validation constraint the client may rely on was removed."],
  },
  "constraint.tightened": {
    request: [B, "A bound was tightened (minimum raised, maximum lowered…)."],
    response: [C, "An output bound was tightened."],
  },
  "constraint.loosened": {
    request: [C, "A bound was loosened."],
    response: [B, "An output bound was loosened: values the client never saw may appear."],
  },
  "constraint.changed": {
    request: [B, "A constraint changed in a way that is neither tighter nor looser."],
    response: [B, "An output constraint changed in a way that is neither tighter nor looser."],
  },
  "additional-properties.disallowed": {
    request: [B, "Undeclared properties are no longer accepted."],
    response: [C, "The output no longer carries undeclared properties."],
  },
  "additional-properties.allowed": {
    request: [C, "Undeclared properties are now accepted."],
    response: [B, "The output may carry undeclared properties."],
  },
  "union.branch-added": {
    request: [C, "An anyOf branch was added: more values are accepted."],
    response: [B, "The output may match a new union branch the client does not handle."],
  },
  "union.branch-removed": {
    request: [B, "An anyOf branch was removed: fewer values are accepted."],
    response: [C, "An output union branch was removed."],
  },
  "one-of.branch-added": {
    request: [B, "A oneOf branch was added: values matching two branches are now refused."],
    response: [B, "The output may match a new oneOf branch the client does not handle."],
  },
  "one-of.branch-removed": {
    request: [B, "A oneOf branch was removed: fewer values are accepted."],
    response: [B, "A oneOf branch was removed: the exclusivity of the remaining branches changed."],
  },
  "all-of.branch-added": {
    request: [B, "An allOf branch was added: fewer values are accepted."],
    response: [C, "An allOf branch was added to the output: fewer values are produced."],
  },
  "all-of.branch-removed": {
    request: [C, "An allOf branch was removed: more values are accepted."],
    response: [B, "An allOf branch the client may rely on was removed."],
  },
  "schema.narrowed": {
    request: [B, "The schema now refuses values it accepted (e.g. became `false`)."],
    response: [C, "The output schema now allows fewer values."],
  },
  "schema.widened": {
    request: [C, "The schema now accepts values it refused (e.g. was `false`)."],
    response: [B, "The output schema now allows values it refused."],
  },
  "default-changed": {
    request: [B, "The default applied when the caller omits the value changed."],
    response: [C, "An output default (an annotation) changed."],
  },
} as const satisfies Record<string, Readonly<Record<Side, Pair>>>;

/** Rules that exist in one place only. */
export const FIXED_RULES = {
  // Lock and source
  "source.added": [C, "A new source whose endpoints are all read-only."],
  "source.added-not-read-only": [S, "A new source with endpoints that write, destroy or are unclassified."],
  "source.removed": [B, "A source is gone: calls to its tools are refused."],
  "source.renamed": [B, "The source name changed."],
  "source.kind-changed": [S, "The source kind (OpenAPI, MCP, OPTIMADE, local) changed."],
  "source.location-changed": [S, "The contract now comes from another location: review who controls it."],
  "source.tool-order-changed": [C, "Tools were reordered."],
  "source.unused-definition-changed": [C, "A shared definition no endpoint uses changed."],
  "mcp.remote-definition-changed": [
    S,
    "The MCP server lists a different definition (descriptions, annotations…).",
  ],
  // Tool
  "tool.added": [C, "A new tool whose endpoints are all read-only."],
  "tool.added-not-read-only": [S, "A new tool with endpoints that write, destroy or are unclassified."],
  "tool.removed": [B, "A tool is gone: calls to it are refused."],
  "tool.renamed": [B, "The tool name changed."],
  "tool.namespace-changed": [B, "The tool namespace changed: generated binding names change."],
  "tool.description-changed": [C, "A tool description changed (descriptive only)."],
  "tool.description-changed.mcp": [S, "An MCP tool description changed: it reaches the model."],
  "tool.spec-overlays-changed": [
    C,
    "The OpenAPI overlays applied to the document, or what they matched, changed (their effects are rules of their own).",
  ],
  "tool.provider-changed": [S, "The logical provider changed."],
  "tool.access-mode-changed": [S, "The access mode changed."],
  "tool.remote-changed": [S, "The local/remote classification changed."],
  "tool.execution.transport-changed": [S, "The transport changed."],
  "tool.execution.origin-changed": [S, "The HTTP origin calls go to changed."],
  "tool.execution.base-path-changed": [S, "The HTTP base path calls go to changed."],
  "tool.execution.mcp-server-changed": [S, "The MCP server connection kind changed."],
  "tool.execution.mcp-identity-changed": [S, "The MCP server identity changed."],
  "tool.execution.optimade-base-url-changed": [S, "The OPTIMADE base URL calls go to changed."],
  "tool.execution.odata-service-root-changed": [S, "The OData service root calls go to changed."],
  "tool.execution.local-module-changed": [S, "The local module that runs the tool changed."],
  "tool.execution.graphql-url-changed": [S, "The GraphQL endpoint URL calls go to changed."],
  "tool.execution.openrpc-url-changed": [S, "The JSON-RPC endpoint OpenRPC calls go to changed."],
  "tool.execution.other-changed": [S, "Other transport/binding identity changed."],
  "tool.endpoint-order-changed": [C, "Endpoints were reordered."],
  // Endpoint
  "endpoint.added.read": [C, "A new read-only endpoint."],
  "endpoint.added.not-read-only": [S, "A new endpoint that writes, destroys or is unclassified."],
  "endpoint.removed": [B, "An endpoint is gone: calls to it are refused."],
  "endpoint.renamed": [B, "The endpoint name changed."],
  "endpoint.description-changed": [C, "An endpoint description changed (descriptive only)."],
  "endpoint.description-changed.mcp": [S, "An MCP tool description changed: it reaches the model."],
  "endpoint.effect.escalated": [S, "The side-effect class moved toward more authority (e.g. read → write)."],
  "endpoint.effect.relaxed": [
    S,
    "The side-effect class moved toward less authority: policy gates stop applying.",
  ],
  "endpoint.execution.kind-changed": [S, "The endpoint execution kind changed."],
  "endpoint.execution.method-to-unsafe": [S, "The HTTP method changed to POST, PUT, PATCH or DELETE."],
  "endpoint.execution.method-changed": [S, "The HTTP method changed."],
  "endpoint.execution.path-changed": [S, "The HTTP path template changed."],
  "endpoint.execution.auth-changed": [
    S,
    "The security schemes (auth requirements) of the operation changed.",
  ],
  "endpoint.execution.request-body-changed": [S, "How the request body is sent changed."],
  "endpoint.execution.success-status-changed": [S, "Which HTTP statuses count as success changed."],
  "endpoint.execution.mcp-tool-name-changed": [S, "The MCP tool name called on the server changed."],
  "endpoint.execution.optimade-changed": [S, "The OPTIMADE entry type, mode or pagination changed."],
  "endpoint.execution.odata-changed": [
    S,
    "The OData resource, operation, keys, parameters or filterable properties calls are built from changed.",
  ],
  "endpoint.execution.local-function-changed": [S, "The local function that runs the endpoint changed."],
  "endpoint.execution.graphql-operation-changed": [
    S,
    "The GraphQL operation type or root field called changed.",
  ],
  "endpoint.execution.graphql-variables-changed": [
    C,
    "The GraphQL types of the variables changed (the parameter rules classify what callers may pass).",
  ],
  "endpoint.execution.graphql-selection-changed": [
    C,
    "How planned fields become a GraphQL selection set changed (the field and output rules classify what is returned).",
  ],
  "endpoint.execution.graphql-partial-results-changed": [
    S,
    "Whether partial GraphQL data is accepted changed.",
  ],
  "endpoint.execution.openrpc-changed": [
    S,
    "The JSON-RPC method called, or how its params are sent, changed.",
  ],
  "endpoint.execution.other-changed": [S, "Other endpoint execution metadata changed."],
  "endpoint.server-projection-changed": [S, "The trusted server-side projection changed."],
  "endpoint.equivalent-rewrite": [
    C,
    "The fingerprint changed but every difference is semantically equivalent.",
  ],
  "contract.unknown-change": [B, "A contract member this rule version does not know changed."],
  // Parameters (request side)
  "request.parameter.required-added": [B, "A new required parameter: existing calls do not pass it."],
  "request.parameter.optional-added": [C, "A new optional parameter."],
  "request.parameter.removed": [B, "A parameter is gone: calls passing it are refused."],
  "request.parameter.became-required": [B, "An optional parameter became required."],
  "request.parameter.became-optional": [C, "A required parameter became optional."],
  "request.parameter.location-changed": [
    S,
    "A parameter travels somewhere else (path, query, header, body).",
  ],
  "request.parameter.header-added": [S, "A new header parameter (auth requirements may have changed)."],
  "request.parameter.header-changed": [S, "The header a parameter travels in changed."],
  "request.parameter.wire-name-changed": [B, "The name a parameter has on the wire changed."],
  "request.parameter.description-changed": [C, "A parameter description changed (descriptive only)."],
  "request.parameter.description-changed.mcp": [
    S,
    "An MCP parameter description changed: it reaches the model.",
  ],
  "request.parameter.order-changed": [C, "Parameters were reordered."],
  // Fields (response side)
  "response.field.added": [C, "A new declared field: the client never relied on it."],
  "response.field.removed": [B, "A declared field is gone: plans selecting it are refused."],
  "response.field.path-changed": [B, "A declared field reads another place of the output."],
  "response.field.result-path-changed": [B, "A declared field lands somewhere else in the result."],
  "response.field.unit-changed": [B, "A declared field's unit changed."],
  "response.field.semantic-id-changed": [B, "A declared field's semantic ID changed."],
  "response.field.normalization-changed": [B, "A declared field's unit normalization changed."],
  "response.field.declaration-changed": [
    B,
    "A declared field's meaning (datatype, dimensions, qualifiers…) changed.",
  ],
  "response.field.description-changed": [
    C,
    "A field description, alias or provenance changed (descriptive).",
  ],
  "response.field.description-changed.mcp": [S, "An MCP field description changed: it reaches the model."],
  "response.field.order-changed": [C, "Fields were reordered."],
  // Schemas (either side)
  "schema.annotation-changed": [C, "A schema annotation (title, description, examples…) changed."],
  "schema.annotation-changed.mcp": [S, "An MCP schema annotation changed: it reaches the model."],
  "schema.unknown-change": [B, "A schema change that cannot be proved safe."],
  "schema.non-monotone-change": [B, "A change inside oneOf/not/if whose effect cannot be proved safe."],
  "schema.comparison-budget-exceeded": [B, "The schemas are too large to compare fully; review by hand."],
} as const satisfies Record<string, Pair>;
