/**
 * The one provider-safe tool name map (docs/agents/README.md, "Tool names"). Every agent adapter and
 * the MCP server facade name a capability `tool.endpoint` the same way, so a conversation that moves
 * between providers keeps its tool names:
 *
 * 1. each part (tool, endpoint) is sanitized: every character the profile does not allow becomes `_`;
 * 2. the parts are joined with the profile's separator;
 * 3. when sanitizing changed anything, or the name is longer than the profile allows, the readable
 *    part is truncated and a short hash of the exact route is appended (`_` + 8 hex digits), so the
 *    name is still a pure function of the route and the profile;
 * 4. the reverse map (name → route) is kept, and two routes that end up with one name are refused
 *    (TOOL_NAME_COLLISION), never overwritten. Explicit names (`overrides`) are checked the same way.
 *
 * Profiles: OpenAI function names `^[a-zA-Z0-9_-]{1,64}$`; Anthropic tool names up to 128 of the same
 * characters; MCP tool names also allow `.`. `portable` (the default) fits all three.
 */
import { createHash } from "node:crypto";
import { SchemaRouterError } from "../errors/errors.js";

export interface NameProfile {
  /** Shown in refusals. */
  readonly id: string;
  readonly maxLength: number;
  /** One allowed character (a single-character class, no flags). */
  readonly allowed: RegExp;
  /** Joins tool and endpoint (itself an allowed character). */
  readonly separator: string;
}

export const NAME_PROFILES = Object.freeze({
  /** Fits OpenAI, Anthropic and MCP: `^[a-zA-Z0-9_-]{1,64}$`. */
  portable: Object.freeze({ id: "portable", maxLength: 64, allowed: /[A-Za-z0-9_-]/, separator: "_" }),
  openai: Object.freeze({ id: "openai", maxLength: 64, allowed: /[A-Za-z0-9_-]/, separator: "_" }),
  anthropic: Object.freeze({ id: "anthropic", maxLength: 128, allowed: /[A-Za-z0-9_-]/, separator: "_" }),
  mcp: Object.freeze({ id: "mcp", maxLength: 128, allowed: /[A-Za-z0-9_.-]/, separator: "." }),
} satisfies Record<string, NameProfile>);

export type NameProfileId = keyof typeof NAME_PROFILES;

/** A capability route: the locked tool (source) name and one of its endpoints. */
export interface NamedRoute {
  readonly tool: string;
  readonly endpoint: string;
}

export interface NameMapOptions {
  /** A profile or its id (default `portable`). */
  readonly profile?: NameProfile | NameProfileId;
  /** Explicit names by route (`tool.endpoint`); each must satisfy the profile. */
  readonly overrides?: Readonly<Record<string, string>>;
  /** Names the caller uses for its own tools (e.g. `search_capabilities`): a route mapping to one is refused. */
  readonly reserved?: readonly string[];
}

const HASH_LENGTH = 8;

export function routeKey(route: NamedRoute): string {
  return `${route.tool}.${route.endpoint}`;
}

export function resolveProfile(profile: NameProfile | NameProfileId | undefined): NameProfile {
  if (profile === undefined) return NAME_PROFILES.portable;
  if (typeof profile === "string") {
    const found = Object.hasOwn(NAME_PROFILES, profile) ? NAME_PROFILES[profile] : undefined;
    if (found === undefined) {
      throw new SchemaRouterError(
        "AGENT_TOOLS_INVALID",
        `Unknown tool name profile "${profile}". Known: ${Object.keys(NAME_PROFILES).join(", ")}.`,
        { option: "profile" },
      );
    }
    return found;
  }
  return profile;
}

/** Whether `name` is a valid tool name under `profile`. */
export function isSafeName(name: string, profile: NameProfile): boolean {
  if (name.length < 1 || name.length > profile.maxLength) return false;
  for (const char of name) if (!profile.allowed.test(char)) return false;
  return true;
}

/** The provider-safe name of one route (deterministic; no collision check, see ToolNameMap). */
export function providerSafeName(route: NamedRoute, profile: NameProfile = NAME_PROFILES.portable): string {
  const tool = sanitize(route.tool, profile);
  const endpoint = sanitize(route.endpoint, profile);
  const joined = `${tool.text}${profile.separator}${endpoint.text}`;
  if (!tool.lossy && !endpoint.lossy && joined.length <= profile.maxLength) return joined;
  const hash = createHash("sha256")
    .update(JSON.stringify([route.tool, route.endpoint]))
    .digest("hex")
    .slice(0, HASH_LENGTH);
  return `${joined.slice(0, profile.maxLength - HASH_LENGTH - 1)}_${hash}`;
}

function sanitize(part: string, profile: NameProfile): { text: string; lossy: boolean } {
  let text = "";
  let lossy = part.length === 0;
  for (const char of part) {
    if (profile.allowed.test(char)) text += char;
    else {
      text += "_";
      lossy = true;
    }
  }
  return { text: text.length > 0 ? text : "_", lossy };
}

/** The name map of one tool set: route → name and name → route, both exact. */
export class ToolNameMap {
  readonly profile: NameProfile;
  readonly #byRoute = new Map<string, string>();
  readonly #byName = new Map<string, NamedRoute>();

  private constructor(profile: NameProfile) {
    this.profile = profile;
  }

  /** Names every route; refuses duplicates, invalid overrides and collisions (nothing is overwritten). */
  static build(routes: Iterable<NamedRoute>, options: NameMapOptions = {}): ToolNameMap {
    const map = new ToolNameMap(resolveProfile(options.profile));
    const overrides = options.overrides ?? {};
    const reserved = new Set(options.reserved ?? []);
    for (const route of routes) {
      const key = routeKey(route);
      if (map.#byRoute.has(key)) {
        throw new SchemaRouterError("AGENT_TOOLS_INVALID", `The tool set lists ${key} twice.`, {
          route: key,
        });
      }
      const override = Object.hasOwn(overrides, key) ? overrides[key] : undefined;
      if (override !== undefined && !isSafeName(override, map.profile)) {
        throw new SchemaRouterError(
          "AGENT_TOOLS_INVALID",
          `The name given for ${key} is not a valid "${map.profile.id}" tool name (${map.profile.allowed.source}, 1 to ${map.profile.maxLength} characters).`,
          { route: key, option: "names" },
        );
      }
      const name = override ?? providerSafeName(route, map.profile);
      const taken = map.#byName.get(name);
      if (taken !== undefined || reserved.has(name)) {
        const other = taken !== undefined ? routeKey(taken) : "a reserved tool";
        throw new SchemaRouterError(
          "TOOL_NAME_COLLISION",
          `${key} and ${other} both map to the tool name "${name}". Give one of them an explicit name (names: { "${key}": "…" }).`,
          { route: key, other, name },
        );
      }
      map.#byRoute.set(key, name);
      map.#byName.set(name, Object.freeze({ tool: route.tool, endpoint: route.endpoint }));
    }
    for (const key of Object.keys(overrides)) {
      if (!map.#byRoute.has(key)) {
        throw new SchemaRouterError("AGENT_TOOLS_INVALID", `names: ${key} is not a route of this tool set.`, {
          route: key,
          option: "names",
        });
      }
    }
    return map;
  }

  get size(): number {
    return this.#byRoute.size;
  }

  /** The name of a route (`tool.endpoint` or `{ tool, endpoint }`), if the map has it. */
  nameOf(route: string | NamedRoute): string | undefined {
    return this.#byRoute.get(typeof route === "string" ? route : routeKey(route));
  }

  /** The route a model-supplied name stands for (exact match only). */
  routeOf(name: string): NamedRoute | undefined {
    return typeof name === "string" ? this.#byName.get(name) : undefined;
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  entries(): [name: string, route: NamedRoute][] {
    return [...this.#byName.entries()];
  }
}
