/**
 * Where a version-2 artifact has its newlines (see artifact-layout.ts), as one set of rendering
 * rules: the compiler writes artifacts with them, and the reader checks that a file's skeleton lines
 * are exactly what they render for the parsed skeleton, so an artifact has one accepted layout.
 */
import { canonicalJson } from "./fingerprint.js";

/** Top-level members written one item (array) or one member (object) per line, for readable diffs. */
const SPLIT = new Set(["compatibility", "endpointIndex", "remoteDigests"]);

/** A split list: a newline after the opener, after each item's comma, and before the closer. */
export function renderList(open: "[" | "{", items: readonly string[]): string {
  const close = open === "[" ? "]" : "}";
  return items.length === 0 ? `${open}\n${close}` : `${open}\n${items.join(",\n")}\n${close}`;
}

/** `"key":text` for each member, keys in code-unit order (canonical JSON object members). */
export function memberTexts(members: ReadonlyMap<string, string>): string[] {
  return [...members.keys()].sort().map((key) => `${JSON.stringify(key)}:${members.get(key)}`);
}

/** A top-level member other than `$defs` and `tools`. */
export function renderMember(key: string, value: unknown): string {
  if (key === "embeddings") return renderEmbeddings(value);
  if (!SPLIT.has(key) || value === null || typeof value !== "object") return canonicalJson(value);
  if (Array.isArray(value)) return renderList("[", value.map(canonicalJson));
  const record = value as Record<string, unknown>;
  return renderList("{", memberTexts(new Map(Object.keys(record).map((k) => [k, canonicalJson(record[k])]))));
}

/** A tool: its members' canonical texts, with `endpoints` split one endpoint per line. */
export function renderTool(members: ReadonlyMap<string, string>, endpoints: readonly string[]): string {
  const all = new Map(members);
  all.set("endpoints", renderList("[", endpoints));
  return `{${memberTexts(all).join(",")}}`;
}

/** The whole artifact from its members' rendered texts: each top-level member starts a line. */
export function renderArtifact(members: ReadonlyMap<string, string>): string {
  return `{${memberTexts(members).join("\n,")}}`;
}

/**
 * The skeleton lines a reader must find for a parsed skeleton (`$defs` empty, every tool's
 * `endpoints` empty): the rendering of that value, whose lines are the file's lines minus the
 * definition and endpoint lines.
 */
export function renderSkeleton(skeleton: Readonly<Record<string, unknown>>): string {
  const members = new Map<string, string>();
  for (const key of Object.keys(skeleton)) {
    const value = skeleton[key];
    if (key === "$defs") members.set(key, renderList("{", []));
    else if (key === "tools" && Array.isArray(value)) {
      const tools = value.map((tool: Record<string, unknown>) => {
        const texts = new Map<string, string>();
        for (const name of Object.keys(tool))
          if (name !== "endpoints") texts.set(name, canonicalJson(tool[name]));
        return renderTool(texts, []);
      });
      members.set(key, `[${tools.join(",")}]`);
    } else members.set(key, renderMember(key, value));
  }
  return renderArtifact(members);
}

/**
 * The `embeddings` member (artifact-embeddings.ts): one line per route and one per vector, so a
 * changed endpoint is a small diff. No line it writes ends with `"endpoints":[` (the reader's tool
 * opener): it only opens `"routes":{` and `"vectors":[`.
 */
/** A vector is a string, whose canonical JSON is its JSON.stringify (RFC 8785 §3.2.2.2). */
function itemText(item: unknown): string {
  return typeof item === "string" ? JSON.stringify(item) : canonicalJson(item);
}

function renderEmbeddings(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return canonicalJson(value);
  const record = value as Record<string, unknown>;
  const members = new Map<string, string>();
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (key === "routes" && member !== null && typeof member === "object" && !Array.isArray(member)) {
      const routes = member as Record<string, unknown>;
      members.set(
        key,
        renderList("{", memberTexts(new Map(Object.keys(routes).map((r) => [r, canonicalJson(routes[r])])))),
      );
    } else if (key === "vectors" && Array.isArray(member))
      members.set(key, renderList("[", member.map(itemText)));
    else members.set(key, canonicalJson(member));
  }
  return `{${memberTexts(members).join(",")}}`;
}
