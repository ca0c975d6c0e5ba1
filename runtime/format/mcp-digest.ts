/**
 * The MCP remote digest: a digest over a tool definition exactly as the server listed it (MCP
 * `tools/list`, Tool object), restricted to the keys that reach a model or change a call. Shared by the
 * compiler (written to the lockfile) and the runtime (compared on every listing).
 */

import type { JsonObject, JsonValue } from "../model/specs.js";
import { digestJson } from "./fingerprint.js";

/** The Tool keys a remote digest covers, in the MCP specification's order. */
export const MCP_DIGEST_KEYS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "execution",
] as const;

/** The digested part of a listed definition: exactly the covered keys the server sent (missing keys omitted). */
export function mcpRemoteDefinition(def: Readonly<Record<string, unknown>>): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const key of MCP_DIGEST_KEYS) {
    if (Object.hasOwn(def, key) && def[key] !== undefined) out[key] = def[key] as JsonValue;
  }
  return out;
}

/** `sha256:<hex>` over the canonical JSON of `mcpRemoteDefinition(def)`. */
export function mcpRemoteDigest(def: Readonly<Record<string, unknown>>): string {
  return digestJson(mcpRemoteDefinition(def));
}
