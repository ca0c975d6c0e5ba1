/**
 * Grounding (docs/sources/proposals.md, "Grounding"): the proposer's answer is untrusted model output.
 * Each endpoint, parameter and field is kept only when its quote, after NFC normalisation and
 * whitespace collapsing, occurs exactly in the page's visible text and names what it grounds.
 * Keys the format does not define are dropped and listed; so is everything ungrounded.
 */
import {
  type DroppedItem,
  PARAMETER_LOCATIONS,
  PROPOSAL_METHODS,
  type ProposalMethod,
  type ProposalParameterLocation,
  type ProposalQuote,
  type ProposalValueType,
  type ProposedEndpoint,
  type ProposedField,
  type ProposedParameter,
  VALUE_TYPES,
} from "../sources/proposal/proposal.js";
import type { VisibleText } from "./visible-text.js";

export const MAX_QUOTE_LENGTH = 500;
export const MAX_ENDPOINTS = 200;
const ENDPOINT_KEYS = ["name", "method", "path", "list", "quote", "parameters", "fields"];
const PARAMETER_KEYS = ["name", "in", "required", "type", "quote"];
const FIELD_KEYS = ["name", "type", "quote"];
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ENDPOINT_NAME = /^[a-z][A-Za-z0-9_]{0,63}$/;
const PATH = /^(\/([A-Za-z0-9._~!$&'()*+,;=:@-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+\/?$|^\/$/;

export interface Grounded {
  readonly endpoints: readonly ProposedEndpoint[];
  readonly dropped: readonly DroppedItem[];
  readonly offered: number;
  readonly grounded: number;
}

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** NFC, whitespace runs as one space, trimmed: how quotes and the page are compared. */
export function normaliseQuote(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").trim();
}

/** Finds a quote in the visible text; undefined when it is not there exactly. */
export function locateQuote(page: VisibleText, quote: unknown): ProposalQuote | undefined {
  if (typeof quote !== "string") return undefined;
  const text = normaliseQuote(quote);
  if (text === "" || text.length > MAX_QUOTE_LENGTH) return undefined;
  // Lines are joined by "\n"; a quote may run across them (same length, so offsets stay valid).
  const offset = page.text.replace(/\n/g, " ").indexOf(text);
  if (offset < 0) return undefined;
  return { text, offset, ...page.positionAt(offset) };
}

class Collector {
  readonly dropped: DroppedItem[] = [];
  drop(at: string, kind: DroppedItem["kind"], name: unknown, reason: string): void {
    this.dropped.push({ at, kind, name: typeof name === "string" ? name.slice(0, 200) : "", reason });
  }
  /** Lists (and ignores) keys the format does not define. */
  extraKeys(at: string, raw: Raw, allowed: readonly string[]): void {
    for (const key of Object.keys(raw).sort())
      if (!allowed.includes(key)) this.drop(`${at}.${key}`, "key", key, "not a key of the proposal format");
  }
}

export function ground(page: VisibleText, answer: unknown): Grounded {
  const out = new Collector();
  const list = isRecord(answer) && Array.isArray(answer.endpoints) ? answer.endpoints : [];
  if (isRecord(answer)) out.extraKeys("answer", answer, ["endpoints"]);
  let offered = 0;
  const endpoints: ProposedEndpoint[] = [];
  const names = new Set<string>();
  const routes = new Set<string>();
  for (const [index, raw] of list.slice(0, MAX_ENDPOINTS).entries()) {
    const at = `endpoints[${index}]`;
    offered += 1 + countChildren(raw);
    const endpoint = groundEndpoint(page, raw, at, out);
    if (endpoint === undefined) continue;
    const route = `${endpoint.method} ${endpoint.path}`;
    if (names.has(endpoint.name) || routes.has(route)) {
      out.drop(at, "endpoint", endpoint.name, `a second endpoint named ${endpoint.name} or ${route}`);
      continue;
    }
    names.add(endpoint.name);
    routes.add(route);
    endpoints.push(endpoint);
  }
  for (const index of list.keys())
    if (index >= MAX_ENDPOINTS) {
      offered += 1;
      out.drop(`endpoints[${index}]`, "endpoint", "", `more than ${MAX_ENDPOINTS} endpoints offered`);
    }
  const grounded = endpoints.reduce((sum, e) => sum + 1 + e.parameters.length + e.fields.length, 0);
  return { endpoints, dropped: out.dropped, offered, grounded };
}

function countChildren(raw: unknown): number {
  if (!isRecord(raw)) return 0;
  const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  return count(raw.parameters) + count(raw.fields);
}

function groundEndpoint(
  page: VisibleText,
  raw: unknown,
  at: string,
  out: Collector,
): ProposedEndpoint | undefined {
  if (!isRecord(raw)) {
    out.drop(at, "endpoint", "", "not an object");
    return undefined;
  }
  out.extraKeys(at, raw, ENDPOINT_KEYS);
  const dropAll = (reason: string) => {
    out.drop(at, "endpoint", raw.name ?? `${String(raw.method)} ${String(raw.path)}`, reason);
    for (const [i, child] of (Array.isArray(raw.parameters) ? raw.parameters : []).entries())
      out.drop(
        `${at}.parameters[${i}]`,
        "parameter",
        isRecord(child) ? child.name : "",
        "its endpoint is dropped",
      );
    for (const [i, child] of (Array.isArray(raw.fields) ? raw.fields : []).entries())
      out.drop(`${at}.fields[${i}]`, "field", isRecord(child) ? child.name : "", "its endpoint is dropped");
    return undefined;
  };
  const method = typeof raw.method === "string" ? raw.method.toLowerCase() : "";
  if (!(PROPOSAL_METHODS as readonly string[]).includes(method))
    return dropAll(`method must be one of ${PROPOSAL_METHODS.join(", ")}`);
  if (typeof raw.path !== "string" || !PATH.test(raw.path) || raw.path.split("/").includes(".."))
    return dropAll("path must be a relative path like /items/{id} (no query, no dot segments)");
  const path = raw.path;
  const name = raw.name === undefined ? derivedName(method, path) : raw.name;
  if (typeof name !== "string" || !ENDPOINT_NAME.test(name))
    return dropAll("name must start with a lower-case letter and use letters, digits and _");
  const quote = locateQuote(page, raw.quote);
  if (quote === undefined) return dropAll("its quote is not in the page's visible text");
  const token = lastLiteralSegment(path);
  if (!quote.text.includes(token)) return dropAll(`its quote does not contain "${token}"`);
  if (method !== "get" && !quote.text.toLowerCase().includes(method))
    return dropAll(`its quote does not name the method ${method.toUpperCase()}`);
  const list = raw.list === true;
  const templates = [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
  const parameters = groundParameters(page, raw.parameters, `${at}.parameters`, templates, out);
  const missing = templates.filter((t) => !parameters.some((p) => p.in === "path" && p.name === t));
  if (missing.length > 0) {
    for (const parameter of parameters)
      out.drop(`${at}.parameters`, "parameter", parameter.name, "its endpoint is dropped");
    for (const [i, child] of (Array.isArray(raw.fields) ? raw.fields : []).entries())
      out.drop(`${at}.fields[${i}]`, "field", isRecord(child) ? child.name : "", "its endpoint is dropped");
    out.drop(at, "endpoint", name, `path parameter {${missing[0]}} is not grounded`);
    return undefined;
  }
  const fields = groundFields(page, raw.fields, `${at}.fields`, out);
  return {
    name,
    method: method as ProposalMethod,
    path,
    description: quote.text,
    list,
    quote,
    parameters,
    fields,
  };
}

function groundParameters(
  page: VisibleText,
  raw: unknown,
  at: string,
  templates: readonly string[],
  out: Collector,
): ProposedParameter[] {
  const kept: ProposedParameter[] = [];
  for (const [index, item] of (Array.isArray(raw) ? raw : []).entries()) {
    const here = `${at}[${index}]`;
    if (!isRecord(item)) {
      out.drop(here, "parameter", "", "not an object");
      continue;
    }
    out.extraKeys(here, item, PARAMETER_KEYS);
    const name = item.name;
    if (typeof name !== "string" || !NAME.test(name)) {
      out.drop(here, "parameter", name, "name must be letters, digits and _");
      continue;
    }
    const location = item.in ?? "query";
    if (!(PARAMETER_LOCATIONS as readonly unknown[]).includes(location)) {
      out.drop(here, "parameter", name, `in must be one of ${PARAMETER_LOCATIONS.join(", ")}`);
      continue;
    }
    if ((location === "path") !== templates.includes(name)) {
      out.drop(
        here,
        "parameter",
        name,
        location === "path" ? "not in the path" : "named in the path but not in: path",
      );
      continue;
    }
    const type = valueType(item.type);
    if (type === undefined) {
      out.drop(here, "parameter", name, `type must be one of ${VALUE_TYPES.join(", ")}`);
      continue;
    }
    const grounded = groundedQuote(page, item.quote, name);
    if (typeof grounded === "string") {
      out.drop(here, "parameter", name, grounded);
      continue;
    }
    if (kept.some((p) => p.name === name)) {
      out.drop(here, "parameter", name, "a second parameter of that name");
      continue;
    }
    kept.push({
      name,
      in: location as ProposalParameterLocation,
      required: location === "path" || item.required === true,
      type,
      quote: grounded,
    });
  }
  return kept;
}

function groundFields(page: VisibleText, raw: unknown, at: string, out: Collector): ProposedField[] {
  const kept: ProposedField[] = [];
  for (const [index, item] of (Array.isArray(raw) ? raw : []).entries()) {
    const here = `${at}[${index}]`;
    if (!isRecord(item)) {
      out.drop(here, "field", "", "not an object");
      continue;
    }
    out.extraKeys(here, item, FIELD_KEYS);
    const name = item.name;
    if (typeof name !== "string" || !NAME.test(name)) {
      out.drop(here, "field", name, "name must be letters, digits and _");
      continue;
    }
    const type = valueType(item.type);
    if (type === undefined) {
      out.drop(here, "field", name, `type must be one of ${VALUE_TYPES.join(", ")}`);
      continue;
    }
    const grounded = groundedQuote(page, item.quote, name);
    if (typeof grounded === "string") {
      out.drop(here, "field", name, grounded);
      continue;
    }
    if (kept.some((f) => f.name === name)) {
      out.drop(here, "field", name, "a second field of that name");
      continue;
    }
    kept.push({ name, type, quote: grounded });
  }
  return kept;
}

/** The located quote, or why it does not ground `name`. */
function groundedQuote(page: VisibleText, quote: unknown, name: string): ProposalQuote | string {
  const located = locateQuote(page, quote);
  if (located === undefined) return "its quote is not in the page's visible text";
  if (!located.text.includes(name)) return `its quote does not contain "${name}"`;
  return located;
}

function valueType(value: unknown): ProposalValueType | undefined {
  if (value === undefined) return "string";
  return (VALUE_TYPES as readonly unknown[]).includes(value) ? (value as ProposalValueType) : undefined;
}

/** The last literal path segment: what an endpoint's quote must contain (`/` for the root). */
function lastLiteralSegment(path: string): string {
  const literals = path.split("/").filter((s) => s !== "" && !s.startsWith("{"));
  return literals.at(-1) ?? "/";
}

/** `get /books/{id}` → `get_books_id`. */
export function derivedName(method: string, path: string): string {
  const parts = path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => s.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+/g, "_"));
  return [method, ...parts].join("_").replace(/_+/g, "_").replace(/_$/, "").slice(0, 64);
}
