/**
 * The capability model shared by the compiler and the runtime.
 *
 * Everything here is plain JSON data, so a ToolSpec survives a round trip through an artifact file
 * unchanged. Fields marked "fingerprinted" take part in the endpoint or tool fingerprint
 * (see fingerprint.ts); `metadata` never does and must never influence execution or policy.
 */

/** A JSON Schema (2020-12 dialect) as plain data. */
export type JsonSchema = { readonly [key: string]: JsonValue } | boolean;

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/** Side-effect classification. Only trusted local code (or the HTTP method of an OpenAPI operation) sets it. */
export type Effect = "read" | "write" | "destructive" | "unclassified";

export const EFFECTS: readonly Effect[] = ["read", "write", "destructive", "unclassified"];

export type SourceKind =
  | "openapi"
  | "mcp"
  | "optimade"
  | "local"
  | "proposal"
  | "plugin"
  | "odata"
  | "graphql"
  | "openrpc";

/** Where an argument travels on the wire. `argument` means "passed as a named argument" (MCP, local). */
export type ParameterLocation = "path" | "query" | "header" | "body" | "argument";

export interface ParameterSpec {
  /** The name the caller uses (unique within an endpoint). */
  readonly name: string;
  readonly location: ParameterLocation;
  /** The name on the wire when it differs from `name` (e.g. a header or a body property). */
  readonly wireName?: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly description?: string;
  /**
   * What the parameter means, from a trusted overlay (docs/runtime/capability-graph.md): an output
   * field with the same semantic ID can supply it. Never derived from names.
   */
  readonly semanticId?: string;
  /** Further semantic IDs whose values the parameter accepts (trusted overlay). */
  readonly accepts?: readonly string[];
}

/** Declared unit normalization: canonical = value * scale + offset. */
export interface UnitNormalization {
  readonly canonicalUnit: string;
  readonly scale: number;
  readonly offset: number;
}

export interface FieldSpec {
  /** Logical field ID: the only thing a plan or a caller names. */
  readonly id: string;
  /**
   * Path in the raw output. Segments are property names; the reserved segment `*` walks the items
   * of an array declared in the output schema. Trusted metadata only.
   */
  readonly path: readonly string[];
  /** Path in the projected result (defaults to `path`); wildcard positions must match `path`. */
  readonly resultPath?: readonly string[];
  readonly schema?: JsonSchema;
  readonly datatype?: string;
  readonly description?: string;
  readonly aliases?: readonly string[];
  readonly semanticId?: string;
  readonly unit?: string;
  readonly dimensions?: string;
  readonly normalization?: UnitNormalization;
  readonly qualifiers?: Readonly<Record<string, string>>;
  /** Identifier fields are kept by the planner whenever any field of the record is kept. */
  readonly identifier?: boolean;
  readonly provenance?: string;
  readonly license?: string;
  /** True when the field comes from a trusted local overlay rather than the remote schema. */
  readonly overlay?: boolean;
  /** Provider-specific field (e.g. an OPTIMADE `_prefix_` property). */
  readonly providerSpecific?: boolean;
}

/**
 * Trusted server-side projection: maps logical field IDs to selectors sent in one query parameter
 * (e.g. OPTIMADE `response_fields`). Fingerprinted; never inferred from a parameter name.
 */
export interface ServerProjectionSpec {
  readonly parameter: string;
  readonly selectors: Readonly<Record<string, string>>;
  /** Selectors always sent (e.g. required identifiers). */
  readonly always: readonly string[];
  readonly separator: string;
}

export type HttpMethod = "get" | "head" | "options" | "post" | "put" | "patch" | "delete" | "trace";

export interface HttpRequestBody {
  /**
   * How the transport encodes the body (docs/runtime/transports.md, "Request bodies"): JSON, or form
   * fields (`application/x-www-form-urlencoded`, `properties` mode only).
   */
  readonly contentType: "application/json" | "application/x-www-form-urlencoded" | "multipart/form-data";
  /** Form bodies: wire names of properties whose encoding style is `deepObject` (arrays as `name[0]=…`). */
  readonly deepObject?: readonly string[];
  /** `properties`: object body flattened into `body` parameters; `value`: the whole body is one parameter. */
  readonly mode: "properties" | "value";
  /** Parameter carrying the whole body in `value` mode. */
  readonly parameter?: string;
  readonly required: boolean;
  /** Multipart bodies: how each property (by wire name) is sent as a part (docs/sources/openapi-bodies.md). */
  readonly parts?: readonly HttpBodyPart[];
}

/** One `multipart/form-data` part: text, JSON text, or a file whose argument is base64. */
export interface HttpBodyPart {
  readonly name: string;
  readonly encoding: "text" | "json" | "file";
  /** The part's Content-Type header (files: the declared type, else application/octet-stream). */
  readonly contentType?: string;
}

/** A success body that is not JSON: `text` is returned as the declared string output. */
export interface HttpResponseBody {
  readonly kind: "text";
  /** The declared media type, sent as the Accept header. */
  readonly mediaType: string;
}

/** Execution metadata of an endpoint (fingerprinted): what the transport does with a call. */
export type EndpointExecution =
  | {
      readonly kind: "http";
      readonly method: HttpMethod;
      /** Path template relative to the binding's base URL, e.g. `/repos/{owner}/{repo}`. */
      readonly path: string;
      readonly requestBody?: HttpRequestBody;
      /** Set when the success body is text, not JSON (docs/sources/openapi-bodies.md). */
      readonly responseBody?: HttpResponseBody;
      /** Status codes whose JSON body is the declared output. */
      readonly successStatus: readonly number[];
      /** Names of the security schemes the operation requires (credentials come from the binding). */
      readonly security?: readonly string[];
    }
  | { readonly kind: "mcp"; readonly toolName: string }
  | {
      readonly kind: "optimade";
      readonly entryType: string;
      readonly mode: "list" | "single";
      readonly paginations: readonly ("offset" | "number" | "cursor")[];
    }
  | { readonly kind: "local"; readonly function: string }
  | ODataExecution
  | GraphqlExecution
  | {
      readonly kind: "openrpc";
      /** The JSON-RPC method called (docs/sources/openrpc.md). */
      readonly rpcMethod: string;
      /** How `params` travels: an object by name, or an array in parameter order. */
      readonly paramStructure: "by-name" | "by-position";
    };

/** A name with its EDM primitive type (an OData key property, operation parameter or filterable property). */
export interface ODataTypedName {
  readonly name: string;
  readonly type: string;
}

/** What the OData transport does with a call (docs/sources/odata.md "Endpoints"). */
export interface ODataExecution {
  readonly kind: "odata";
  readonly operation: "list" | "get" | "singleton" | "function" | "action";
  /** The entity set, singleton or operation import addressed, relative to the service root. */
  readonly resource: string;
  /** Key properties addressing one entity (get; operations bound to an entity), in key order. */
  readonly keys: readonly ODataTypedName[];
  /** Function parameters (inline in the URL) or action parameters (the JSON body), in order. */
  readonly parameters: readonly ODataTypedName[];
  /** A bound operation's qualified name, appended to the entity (set) path. */
  readonly bound?: string;
  /** list: the properties a structured filter may compare, with their primitive types. */
  readonly filterable: readonly ODataTypedName[];
  /** True when the answer is a collection wrapped in `value` (pages followed by `@odata.nextLink`). */
  readonly collection: boolean;
}

/**
 * A GraphQL root field called as one operation (docs/sources/graphql.md). The runtime builds the
 * query text from these locked, name-checked parts and the planned fields; it never parses GraphQL.
 */
export interface GraphqlExecution {
  readonly kind: "graphql";
  readonly operation: "query" | "mutation";
  /** The root field (a GraphQL name). */
  readonly field: string;
  /** Argument name → its GraphQL type as written in the schema (e.g. `[ID!]!`), sent as a variable. */
  readonly variables: Readonly<Record<string, string>>;
  /** The server-side projection contract (fingerprinted): how planned fields become a selection set. */
  readonly selection: GraphqlSelectionSpec;
  /** Data that comes with `errors` is returned (true) or refused (false); local config only. */
  readonly partialResults: boolean;
}

export interface GraphqlSelectionSpec {
  /**
   * Positions (field names below the root joined by ".", "" for the root value) whose type is an
   * interface or union: their selection set also asks for `__typename`.
   */
  readonly abstract: readonly string[];
  /**
   * Union positions: for each child field, the member types it is selected on (`... on Type`).
   */
  readonly unions: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

export interface EndpointSpec {
  readonly name: string;
  readonly description: string;
  readonly effect: Effect;
  readonly parameters: readonly ParameterSpec[];
  /** JSON Schema of the argument object (properties = parameters). May `$ref` the artifact's `$defs`. */
  readonly inputSchema: JsonSchema;
  /** JSON Schema of the raw output. May `$ref` the artifact's `$defs`. */
  readonly outputSchema: JsonSchema;
  readonly fields: readonly FieldSpec[];
  readonly serverProjection?: ServerProjectionSpec;
  /**
   * Routes (`tool.endpoint`) that must have run before this one, declared by a trusted overlay. The
   * capability graph reports them; nothing runs them (docs/runtime/capability-graph.md).
   */
  readonly preconditions?: readonly string[];
  readonly execution: EndpointExecution;
  /** Descriptive only: not fingerprinted, never read by execution or policy. */
  readonly metadata?: JsonObject;
}

/** Transport and binding identity of a tool (fingerprinted). */
export type ToolExecution =
  | { readonly transport: "http"; readonly basePath: string; readonly origin?: string }
  | { readonly transport: "mcp"; readonly server: "stdio" | "http"; readonly identity: string }
  | { readonly transport: "optimade"; readonly baseUrl: string }
  | { readonly transport: "local"; readonly module: string }
  | { readonly transport: "odata"; readonly serviceRoot: string }
  /** `url`: the endpoint introspected at compile time; absent for an SDL file (the binding gives it). */
  | { readonly transport: "graphql"; readonly url?: string }
  | { readonly transport: "openrpc"; readonly rpcUrl: string };

export interface ToolSpec {
  readonly name: string;
  readonly namespace: string;
  readonly description: string;
  /** The logical information provider. */
  readonly provider: string;
  /** One access path of that provider (e.g. `rest`, `mcp`). */
  readonly accessMode: string;
  readonly remote: boolean;
  readonly execution: ToolExecution;
  readonly endpoints: readonly EndpointSpec[];
  /** Descriptive only: not fingerprinted. */
  readonly metadata?: JsonObject;
}

/** A call the executor checks and runs. Both fingerprints pin the contract it was planned against. */
export interface ToolCall {
  readonly tool: string;
  readonly endpoint: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Logical field IDs to return; omitted = every declared field. */
  readonly fields?: readonly string[];
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
}

export interface ToolResult<T = unknown> {
  readonly tool: string;
  readonly endpoint: string;
  readonly data: T;
  readonly fields: readonly string[];
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  readonly attempts: number;
}

/** One entry of a source's machine-readable compatibility report. */
export interface CompatibilityIssue {
  /** JSON pointer into the source document (or a pseudo-pointer for non-document sources). */
  readonly pointer: string;
  readonly construct: string;
  readonly level: "partial" | "unsupported";
  readonly message: string;
  /**
   * Set when this issue left something callable out of the artifact: the pointer of the operation
   * (MCP tool, OPTIMADE entry type) that is not compiled. `compile` counts these per source.
   */
  readonly leftOut?: string;
}

/** Returns the field's result path (defaults to its source path). */
export function resultPathOf(field: FieldSpec): readonly string[] {
  return field.resultPath ?? field.path;
}

export function isReadOnly(endpoint: EndpointSpec): boolean {
  return endpoint.effect === "read";
}
