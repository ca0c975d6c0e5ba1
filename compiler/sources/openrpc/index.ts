/**
 * The OpenRPC SourceAdapter (OpenRPC 1.3 "OpenRPC Object"; docs/sources/openrpc.md): a document from
 * a file, a URL or `rpc.discover`, validated against the OpenRPC meta-schema, one ToolSpec per source
 * and one EndpointSpec per method. Calls go to the locked JSON-RPC endpoint from trusted config, never
 * to the document's `servers` (reported as metadata only).
 */
import type { CompatibilityIssue, EndpointSpec, ToolSpec } from "schemarouter/internal";
import { sanitizeLocation } from "schemarouter/internal";
import type { OpenRpcSourceConfig } from "../../config/config.js";
import { openRpcCallUrl } from "../../config/openrpc-source.js";
import { SourceError } from "../../errors/errors.js";
import { sortIssues } from "../compatibility.js";
import { MAX_DOCUMENT_DEPTH, tooDeepAt } from "../depth.js";
import { checkSourceUrl } from "../fetch.js";
import { SchemaConverter, UnsupportedConstruct } from "../openapi/schema-object.js";
import { reportUnsupportedPatterns } from "../patterns.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { loadOpenRpcDocument } from "./document.js";
import { draft07ToJsonSchema2020 } from "./draft07-schema.js";
import { reportExtensions } from "./extensions.js";
import { buildMethodEndpoint } from "./method-object.js";
import { lookupLocal, resolveObject } from "./reference-object.js";

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === "object" && !Array.isArray(value);

export const openrpcAdapter: SourceAdapter<OpenRpcSourceConfig> = {
  kind: "openrpc",
  async resolve(name: string, config: OpenRpcSourceConfig, context: SourceContext): Promise<SourceResult> {
    const url = checkOpenRpcConfig(name, config, context);
    const loaded = await loadOpenRpcDocument(name, config, context);
    return buildOpenRpcSource(name, config, loaded.doc, {
      url,
      documentDigest: loaded.documentDigest,
      location: loaded.location,
    });
  },
};

/** Exactly one of location/discover, and a JSON-RPC endpoint that passes the URL rules. */
export function checkOpenRpcConfig(
  name: string,
  config: OpenRpcSourceConfig,
  context: SourceContext,
): string {
  if ((config.location === undefined) === (config.discover === undefined))
    throw new SourceError(name, "SOURCE_INVALID", 'give exactly one of "location" or "discover".');
  const url = openRpcCallUrl(config);
  if (url === undefined)
    throw new SourceError(
      name,
      "SOURCE_INVALID",
      'set "url" to the JSON-RPC endpoint calls go to (the document\'s servers are not trusted to choose it).',
    );
  return checkSourceUrl(name, url, context.allowInsecureHttp).href;
}

export interface OpenRpcFacts {
  /** The locked JSON-RPC endpoint. */
  readonly url: string;
  readonly documentDigest: string;
  readonly location: string;
}

/** Pure: compiles a validated OpenRPC document into the source result. */
export function buildOpenRpcSource(
  source: string,
  config: OpenRpcSourceConfig,
  doc: Node,
  facts: OpenRpcFacts,
): SourceResult {
  const deep = tooDeepAt(doc);
  if (deep !== undefined)
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the OpenRPC document nests deeper than ${MAX_DOCUMENT_DEPTH} levels (at ${deep}); schemarouter refuses such documents.`,
      { pointer: deep, limit: MAX_DOCUMENT_DEPTH },
    );
  const issues: CompatibilityIssue[] = [];
  const report = (issue: CompatibilityIssue) => issues.push(issue);
  const converter = new SchemaConverter(
    (ref) => {
      const target = lookupLocal(doc, ref);
      return target === undefined ? undefined : draft07ToJsonSchema2020(target);
    },
    "3.1",
    report,
  );
  const endpoints: EndpointSpec[] = [];
  const names = new Set<string>();
  const methods = Array.isArray(doc.methods) ? doc.methods : [];
  methods.forEach((entry, index) => {
    const pointer = `/methods/${index}`;
    try {
      const method = resolveObject(doc, entry, pointer, "method");
      const methodName = method.name;
      if (typeof methodName !== "string")
        throw new UnsupportedConstruct({
          pointer,
          construct: "method-name",
          level: "unsupported",
          message: `method ${index} has no name; it is not compiled.`,
        });
      if (methodName in Object.prototype)
        throw new UnsupportedConstruct({
          pointer,
          construct: "method-name",
          level: "unsupported",
          message: `method "${methodName}" is a name reserved by JavaScript objects that the lockfile cannot key safely; it is not compiled.`,
        });
      if (names.has(methodName))
        throw new UnsupportedConstruct({
          pointer,
          construct: "method-name",
          level: "unsupported",
          message: `method "${methodName}" is declared twice (OpenRPC method names are unique); the second is not compiled.`,
        });
      names.add(methodName);
      endpoints.push(buildMethodEndpoint({ doc, converter, config, report }, method, pointer));
    } catch (error) {
      if (!(error instanceof UnsupportedConstruct)) throw error;
      report({ ...error.issue, leftOut: pointer });
    }
  });
  for (const method of Object.keys(config.effects ?? {}))
    if (!endpoints.some((endpoint) => endpoint.name === method))
      throw new SourceError(
        source,
        "SOURCE_INVALID",
        `effects.${method} names a method the document does not compile. Remove or rename it.`,
        { method },
      );
  for (const recursive of converter.recursiveDefinitions())
    report({
      pointer: converter.pointerOf(recursive) ?? "",
      construct: "recursive-ref",
      level: "partial",
      message: `schema ${recursive} is recursive; it is validated as written, and fields only see its first level.`,
    });
  reportExtensions(doc, report);
  const patterns = new Map<string, string | undefined>();
  for (const [defName, schema] of Object.entries(converter.defs))
    reportUnsupportedPatterns(schema, converter.pointerOf(defName) ?? `/$defs/${defName}`, report, patterns);
  const info = isNode(doc.info) ? doc.info : {};
  const title = typeof info.title === "string" && info.title !== "" ? info.title : source;
  const description =
    typeof info.description === "string" && info.description !== "" ? `: ${info.description}` : ".";
  const tool: ToolSpec = {
    name: source,
    namespace: source,
    description: `JSON-RPC methods of "${title}"${description}`,
    provider: title,
    accessMode: "openrpc",
    remote: true,
    execution: { transport: "openrpc", rpcUrl: facts.url },
    endpoints,
    metadata: {
      openrpc: typeof doc.openrpc === "string" ? doc.openrpc : null,
      version: typeof info.version === "string" ? info.version : null,
      servers: serversOf(doc),
    },
  };
  return {
    tools: [tool],
    defs: { ...converter.defs },
    compatibility: sortIssues(issues),
    documentDigest: facts.documentDigest,
    location: facts.location,
  };
}

/** The document's servers (descriptive: calls go to the locked `url`), sanitized. */
function serversOf(doc: Node): string[] {
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  return servers
    .map((server, index) => {
      try {
        const resolved = resolveObject(doc, server, `/servers/${index}`, "server");
        return typeof resolved.url === "string" ? sanitizeLocation(resolved.url) : undefined;
      } catch {
        return undefined;
      }
    })
    .filter((url): url is string => url !== undefined);
}
