/**
 * The OpenAPI SourceAdapter: one ToolSpec per document, one EndpointSpec per operation, shared
 * schemas stored once as `$defs`, and a compatibility report of everything partial or unsupported.
 * Spec: OpenAPI 3.0.3 / 3.1.0 §4.8.8 (Paths Object), §4.8.5 (Server Object), §4.8.1 (webhooks).
 */
import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import type { CompatibilityIssue, EndpointSpec, JsonSchema, ToolSpec } from "schemarouter/internal";
import {
  directDefRefs,
  encodePointerToken,
  isUrl,
  sanitizeLocation,
  withoutQueryOrFragment,
} from "schemarouter/internal";
import type { OpenApiSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { sortIssues } from "../compatibility.js";
import { reportUnsupportedPatterns } from "../patterns.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { loadOpenApiDocument, resolveSchemaHeaders } from "./document.js";
import { type BundledRefs, bundleExternalRefs } from "./external-refs.js";
import { buildEndpoint, METHODS } from "./operation-object.js";
import { checkResponseExamples, type ResponseExample } from "./response-examples.js";
import { SchemaConverter, UnsupportedConstruct } from "./schema-object.js";
import { apiKeySchemes } from "./security-scheme-object.js";
import { applySpecOverlays, overlaidDigest, overlayMetadata } from "./spec-overlays/index.js";

type Node = Record<string, unknown>;

export const openapiAdapter: SourceAdapter<OpenApiSourceConfig> = {
  kind: "openapi",
  async resolve(name: string, config: OpenApiSourceConfig, context: SourceContext): Promise<SourceResult> {
    const loaded = await loadOpenApiDocument(name, config.location, config.schemaHeaders, context);
    const { doc } = loaded;
    // Applied to the parsed document before anything else reads it (docs/sources/openapi-overlays.md).
    const overlaid = await applySpecOverlays(name, doc, config.specOverlays ?? [], context.cwd);
    // Off unless local config enables them; then bundled into `doc` before anything reads it.
    const external: BundledRefs | undefined =
      config.externalRefs?.enabled === true
        ? await bundleExternalRefs(name, loaded, config.externalRefs, {
            // Only a fetched root document can reference URLs (its own origin), which get its headers.
            headers: isUrl(loaded.base) ? resolveSchemaHeaders(name, config.schemaHeaders, context.env) : {},
            allowInsecureHttp: context.allowInsecureHttp,
          })
        : undefined;
    let refs: { get(ref: string): unknown };
    try {
      // Not a copy: resolving local references (no `set`, no dereferencing) reads the document only,
      // and the adapter reads it the same way (copying it cost as much as converting its schemas).
      refs = await new $RefParser().resolve(doc, { resolve: { external: false } });
    } catch (error) {
      throw new SourceError(
        name,
        "SOURCE_INVALID",
        `resolving $refs failed: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
    // Operations share parameters, responses and schemas: each reference is resolved once (the
    // document is not modified, so the answer cannot change).
    const resolved = new Map<string, unknown>();
    const lookup = (ref: string): unknown => {
      if (resolved.has(ref)) return resolved.get(ref);
      let target: unknown;
      try {
        target = refs.get(ref);
      } catch {
        target = undefined;
      }
      resolved.set(ref, target);
      return target;
    };
    const issues: CompatibilityIssue[] = [];
    const report = (issue: CompatibilityIssue) => issues.push(issue);
    const converter = new SchemaConverter(lookup, loaded.version, report, external?.refusals);
    const examples: ResponseExample[] = [];
    const endpoints = compileOperations(doc, converter, report, examples);
    checkResponseExamples(examples, converter.defs, report);
    reportDocumentLevel(doc, report);
    // A document whose text names no pattern has none to report (overlays and bundled external
    // documents may bring some, so the document is walked whenever either applied).
    if (loaded.mayNamePatterns || overlaid.overlays.length > 0 || external !== undefined)
      reportUnsupportedPatterns(doc, "", report);
    for (const def of converter.recursiveDefinitions()) {
      report({
        pointer: converter.pointerOf(def) ?? `/$defs/${encodePointerToken(def)}`,
        construct: "recursive-ref",
        level: "partial",
        message: `schema "${def}" is recursive: validated in full; fields and types stop at the recursion.`,
      });
    }
    const info = (doc.info ?? {}) as Node;
    const server = firstServer(doc);
    const tool: ToolSpec = {
      name,
      namespace: name,
      description: [info.title, info.description]
        .filter((part) => typeof part === "string" && part !== "")
        .join("\n\n"),
      provider: typeof info.title === "string" && info.title !== "" ? info.title : name,
      accessMode: "rest",
      remote: true,
      execution: {
        transport: "http",
        basePath: server.basePath,
        ...(server.origin !== undefined ? { origin: server.origin } : {}),
      },
      endpoints,
      metadata: {
        openapi: String(doc.openapi),
        version: typeof info.version === "string" ? info.version : null,
        servers: serverUrls(doc),
        ...(external !== undefined && external.documents.length > 0
          ? { externalDocuments: [...external.documents] }
          : {}),
        ...(overlaid.overlays.length > 0 ? overlayMetadata(overlaid) : {}),
      },
    };
    return {
      tools: [tool],
      defs: usedDefs(converter.defs, endpoints),
      compatibility: sortIssues(
        external === undefined
          ? issues
          : issues.map((issue) => ({ ...issue, pointer: external.locate(issue.pointer) })),
      ),
      documentDigest: overlaidDigest(external?.documentDigest ?? loaded.documentDigest, overlaid),
      location: loaded.location,
      ...(overlaid.notes.length > 0 ? { notes: overlaid.notes } : {}),
      ...(overlaid.warnings.length > 0 ? { warnings: overlaid.warnings } : {}),
    };
  },
};

function compileOperations(
  doc: Node,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
  examples: ResponseExample[],
): EndpointSpec[] {
  const endpoints: EndpointSpec[] = [];
  const names = new Set<string>();
  const credentials = apiKeySchemes(doc, converter, report);
  const paths = (doc.paths ?? {}) as Node;
  const items: [string, Node][] = [];
  const redacted = new Map<string, number>();
  for (const [path, rawItem] of Object.entries(paths)) {
    let pathItem = rawItem as Node;
    if (pathItem === null || typeof pathItem !== "object") continue;
    if (typeof pathItem.$ref === "string") {
      try {
        pathItem = converter.resolveObject(pathItem.$ref, `/paths/${encodePointerToken(path)}`, "path item");
      } catch (error) {
        if (!(error instanceof UnsupportedConstruct)) throw error;
        report({ ...error.issue, leftOut: `/paths/${encodePointerToken(path)}` });
        continue;
      }
    }
    const unsafe = unsafeTemplate(path);
    if (unsafe !== undefined) {
      // The template's query, fragment and userinfo are not repeated in the report (they may be secrets);
      // templates that redact alike are numbered, so each of their operations is still counted.
      const template = redactedTemplate(path);
      const seen = (redacted.get(template) ?? 0) + 1;
      redacted.set(template, seen);
      const shown = `/paths/${encodePointerToken(seen === 1 ? template : `${template}(${seen})`)}`;
      const message = `path template ${unsafe}; its operations are left out (a template is a path under the binding's base URL, nothing else).`;
      const methods = METHODS.filter(
        (method) => pathItem[method] !== null && typeof pathItem[method] === "object",
      );
      if (methods.length === 0)
        report({ pointer: shown, construct: "unsafe-path-template", level: "unsupported", message });
      for (const method of methods)
        report({
          pointer: shown,
          construct: "unsafe-path-template",
          level: "unsupported",
          message,
          leftOut: `${shown}/${method}`,
        });
      continue;
    }
    items.push([path, pathItem]);
  }
  // Declared operationIds keep their names: generated names and renamed duplicates avoid all of them.
  const declared = new Set<string>();
  for (const [, pathItem] of items)
    for (const method of METHODS) {
      const id = operationIdOf(pathItem[method]);
      if (id !== undefined) declared.add(id);
    }
  for (const [path, pathItem] of items) {
    const itemPointer = `/paths/${encodePointerToken(path)}`;
    if (pathItem.servers !== undefined)
      report({
        pointer: `${itemPointer}/servers`,
        construct: "operation-servers",
        level: "partial",
        message: "path-level servers are descriptive; the binding's base URL is used.",
      });
    for (const method of METHODS) {
      const operation = pathItem[method] as Node | undefined;
      if (operation === undefined || operation === null || typeof operation !== "object") continue;
      const pointer = `${itemPointer}/${method}`;
      if (operation.servers !== undefined)
        report({
          pointer: `${pointer}/servers`,
          construct: "operation-servers",
          level: "partial",
          message: "operation-level servers are descriptive; the binding's base URL is used.",
        });
      const name = endpointName(operation, method, path, names, declared, pointer, report);
      // Examples of an operation that is left out are not checked.
      const found: ResponseExample[] = [];
      try {
        endpoints.push(
          buildEndpoint(
            {
              name,
              path,
              method,
              pathItem,
              operation,
              globalSecurity: doc.security,
              credentials,
              examples: found,
            },
            converter,
            report,
          ),
        );
        examples.push(...found);
      } catch (error) {
        if (!(error instanceof UnsupportedConstruct)) throw error;
        report({ ...error.issue, leftOut: pointer });
        names.delete(name);
      }
    }
  }
  return endpoints;
}

/**
 * Why a path template cannot be executed safely, or undefined. A template is document text: an absolute
 * or protocol-relative URL would leave the bound origin, and a query string or fragment could override
 * trusted query credentials (docs/sources/openapi.md, "Left out").
 */
function unsafeTemplate(path: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return "is an absolute URL";
  if (path.startsWith("//")) return "is a protocol-relative URL";
  if (!path.startsWith("/")) return 'does not start with "/"';
  if (path.includes("?")) return "carries a query string";
  if (path.includes("#")) return "carries a fragment";
  if (path.includes("\\")) return "contains a backslash";
  return undefined;
}

/** A template as it may be shown: sanitized like a URL, its query and fragment replaced by `…`. */
function redactedTemplate(path: string): string {
  const shown = sanitizeLocation(path);
  const query = path.indexOf("?");
  const fragment = path.indexOf("#");
  const marks = `${query >= 0 ? "?…" : ""}${fragment >= 0 ? "#…" : ""}`;
  return `${shown}${marks}`;
}

function operationIdOf(operation: unknown): string | undefined {
  if (operation === null || typeof operation !== "object") return undefined;
  const id = (operation as Node).operationId;
  return typeof id === "string" && id.trim() !== "" ? id.trim() : undefined;
}

function endpointName(
  operation: Node,
  method: string,
  path: string,
  taken: Set<string>,
  declared: ReadonlySet<string>,
  pointer: string,
  report: (issue: CompatibilityIssue) => void,
): string {
  const id = operationIdOf(operation);
  const base =
    id ??
    `${method}_${
      path
        .replace(/[{}]/g, "")
        .replace(/[^A-Za-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "") || "root"
    }`;
  let name = base;
  // The first operation declaring an id owns it; every other name avoids taken and declared ids.
  if (id === undefined || taken.has(id)) {
    for (let i = 2; taken.has(name) || declared.has(name); i++) name = `${base}_${i}`;
  }
  if (id !== undefined && name !== id) {
    report({
      pointer: `${pointer}/operationId`,
      construct: "duplicate-operation-id",
      level: "partial",
      message: `operationId "${id}" is used more than once; this operation is named "${name}".`,
    });
  }
  taken.add(name);
  return name;
}

function reportDocumentLevel(doc: Node, report: (issue: CompatibilityIssue) => void): void {
  const webhooks = doc.webhooks;
  if (webhooks !== null && typeof webhooks === "object") {
    for (const hook of Object.keys(webhooks))
      report({
        pointer: `/webhooks/${encodePointerToken(hook)}`,
        construct: "webhook",
        level: "unsupported",
        message: "webhooks are incoming calls; they are not compiled into capabilities.",
      });
  }
  const servers = Array.isArray(doc.servers) ? (doc.servers as Node[]) : [];
  servers.forEach((server, index) => {
    if (server?.variables !== undefined)
      report({
        pointer: `/servers/${index}/variables`,
        construct: "server-variables",
        level: "partial",
        message: "server variables are not expanded; the binding's base URL is used.",
      });
  });
}

/**
 * The first server's origin and base path, as descriptive data (the binding's base URL is what runs).
 * Userinfo, query and fragment never survive; a protocol-relative or relative URL has no origin.
 */
function firstServer(doc: Node): { origin?: string; basePath: string } {
  const url = Array.isArray(doc.servers) ? (doc.servers[0] as Node | undefined)?.url : undefined;
  if (typeof url !== "string" || url.includes("{")) return { basePath: "" };
  const relativeTo = url.startsWith("//") ? "https:" : "";
  try {
    const parsed = new URL(relativeTo + url);
    const basePath = parsed.pathname.replace(/\/+$/, "");
    return relativeTo === "" ? { origin: parsed.origin, basePath } : { basePath };
  } catch {
    return { basePath: withoutQueryOrFragment(url).replace(/\/+$/, "") };
  }
}

function serverUrls(doc: Node): string[] {
  if (!Array.isArray(doc.servers)) return [];
  return (doc.servers as Node[]).flatMap((server) =>
    typeof server?.url === "string" ? [sanitizeLocation(server.url)] : [],
  );
}

/** The definitions reachable from the compiled endpoints, sorted by name. */
function usedDefs(
  defs: Record<string, JsonSchema>,
  endpoints: readonly EndpointSpec[],
): Record<string, JsonSchema> {
  // DefinitionSet.closure's answer, by walking the definitions (directDefRefs) rather than
  // serializing each one: the artifact serializes them once, later (emit/artifact.ts).
  const seen = new Set<string>();
  const pending = [...directDefRefs(endpoints)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (def === undefined) throw new TypeError(`unknown shared definition "${name}"`);
    for (const next of directDefRefs(def)) if (!seen.has(next)) pending.push(next);
  }
  // Null prototype: `__proto__` is an ordinary definition name here, never the object's prototype.
  const out = Object.create(null) as Record<string, JsonSchema>;
  for (const key of [...seen].sort()) out[key] = defs[key]!;
  return out;
}
