/**
 * Security Scheme Objects of type `apiKey` → the header, query or cookie names that carry
 * credentials. Such a name is never a model-visible tool parameter, even when an operation also
 * declares it as one: credentials come only from the trusted runtime binding (`headers`, `query`).
 * Spec: OpenAPI 3.1.0 §4.8.27 (Security Scheme Object), §4.8.30 (Security Requirement Object).
 */

import type { CompatibilityIssue } from "schemarouter/internal";
import { encodePointerToken } from "schemarouter/internal";
import { type SchemaConverter, UnsupportedConstruct } from "./schema-object.js";

type Node = Record<string, unknown>;

export interface ApiKeyScheme {
  /** The scheme's name in `components.securitySchemes`. */
  readonly scheme: string;
  readonly in: "header" | "query" | "cookie";
  /** The header, query parameter or cookie name carrying the key. */
  readonly name: string;
  readonly pointer: string;
}

/** Every declared `apiKey` scheme (Reference Objects resolved), in declaration order. */
export function apiKeySchemes(
  doc: Node,
  converter: SchemaConverter,
  report: (issue: CompatibilityIssue) => void,
): ApiKeyScheme[] {
  const components = doc.components as Node | undefined;
  const declared = components?.securitySchemes;
  if (declared === null || typeof declared !== "object" || Array.isArray(declared)) return [];
  const schemes: ApiKeyScheme[] = [];
  for (const [scheme, raw] of Object.entries(declared as Node)) {
    let pointer = `/components/securitySchemes/${encodePointerToken(scheme)}`;
    let node = raw as Node | null;
    if (node !== null && typeof node === "object" && typeof node.$ref === "string") {
      try {
        const ref = node.$ref;
        node = converter.resolveObject(ref, pointer, "security scheme");
        pointer = ref.slice(1);
      } catch (error) {
        if (!(error instanceof UnsupportedConstruct)) throw error;
        report(error.issue);
        continue;
      }
    }
    if (node === null || typeof node !== "object" || node.type !== "apiKey") continue;
    const location = node.in;
    if (
      typeof node.name !== "string" ||
      (location !== "header" && location !== "query" && location !== "cookie")
    )
      continue;
    schemes.push({ scheme, in: location, name: node.name, pointer });
  }
  return schemes;
}

/** The apiKey scheme whose credential a parameter `in`/`name` would carry (header names ignore case). */
export function credentialSchemeOf(
  schemes: readonly ApiKeyScheme[],
  location: string,
  name: string,
): ApiKeyScheme | undefined {
  return schemes.find(
    (scheme) =>
      scheme.in === location &&
      (location === "header" ? scheme.name.toLowerCase() === name.toLowerCase() : scheme.name === name),
  );
}

/** The issue of a parameter dropped because it carries a scheme's credential. */
export function credentialParameterIssue(scheme: ApiKeyScheme, pointer: string): CompatibilityIssue {
  const what = `${scheme.in === "query" ? "query parameter" : scheme.in} "${scheme.name}" carries the credential of security scheme "${scheme.scheme}" (apiKey)`;
  if (scheme.in === "cookie") {
    return {
      pointer,
      construct: "credential-parameter",
      level: "unsupported",
      message: `${what}; it is not a tool parameter, and the HTTP binding has no cookie credential option: send it as a trusted "cookie" header (binding headers) if the API needs it.`,
    };
  }
  return {
    pointer,
    construct: "credential-parameter",
    level: "partial",
    message: `${what}; it is not a tool parameter: set it in the trusted runtime binding (${scheme.in === "query" ? "query" : "headers"}).`,
  };
}

/**
 * Reports apiKey-in-cookie schemes the operation requires: the runtime has no cookie credential
 * option (unsupported); a trusted `cookie` header in the binding is the way to send one.
 */
export function reportCookieCredentials(
  required: readonly string[],
  schemes: readonly ApiKeyScheme[],
  report: (issue: CompatibilityIssue) => void,
): void {
  for (const scheme of schemes) {
    if (scheme.in !== "cookie" || !required.includes(scheme.scheme)) continue;
    report({
      pointer: scheme.pointer,
      construct: "credential-cookie",
      level: "unsupported",
      message: `security scheme "${scheme.scheme}" sends its apiKey in cookie "${scheme.name}", which the HTTP binding cannot set as a credential option (only headers and query); send it as a trusted "cookie" header in the binding.`,
    });
  }
}
