/**
 * The `source` stamps of a lockfile's entries (inputs.ts `sourceInputs`: the config entry and the whole
 * lock entry, canonicalised and hashed), remembered in the compile cache under the digest of the
 * lockfile text they were computed for (docs/sources/openapi.md, "The compile cache"). Checking that a
 * source's client module carries the stamp the compile would write otherwise canonicalises and hashes
 * every lock entry on every compile; a lockfile text decides its entries, so the stamp of entry `name`
 * of the text with digest D, for a given config entry, is a pure function of (D, name, config entry).
 * The config entry is kept with the stamp in its canonical form and compared, never assumed.
 */
import { canonicalJson, type LockedSource, type Lockfile } from "schemarouter/internal";
import type { SourceConfig } from "../config/config.js";
import type { CompileCache } from "./compile-cache.js";
import { BINDINGS_FORMAT, sourceInputs } from "./inputs.js";

/** The compile cache's record kind: per lockfile digest, each entry's canonical config and stamp. */
export const LOCK_STAMPS = `lock-stamps-${BINDINGS_FORMAT}`;

type Remembered = Readonly<Record<string, readonly [string, string]>>;

export class SourceStamps {
  private readonly previous: Remembered | undefined;
  /** Stamps computed in this compile for entries of the previous lockfile, by source name. */
  private readonly computed = new Map<string, { readonly locked: LockedSource; readonly stamp: string }>();

  /** `previousDigest`: the SHA-256 of the previous lockfile's text, whose entries are checked. */
  constructor(
    private readonly cache: CompileCache,
    previousDigest: string | undefined,
  ) {
    const value = previousDigest === undefined ? undefined : cache.derivedOf(LOCK_STAMPS, previousDigest);
    this.previous = value !== null && typeof value === "object" ? (value as Remembered) : undefined;
  }

  /**
   * `sourceInputs(name, config, locked)` for `locked`, the entry `name` of the previous lockfile: from
   * the record of that lockfile text when the config entry is the same, else computed.
   */
  ofPrevious(name: string, config: SourceConfig, locked: LockedSource): string {
    const remembered = this.previous?.[name];
    const stamp =
      Array.isArray(remembered) &&
      typeof remembered[1] === "string" &&
      remembered[0] === canonicalJson(config)
        ? remembered[1]
        : sourceInputs(name, config, locked);
    this.computed.set(name, { locked, stamp });
    return stamp;
  }

  /**
   * Records the stamps of every entry of `lock`, the lockfile whose text has SHA-256 `digest` (written
   * by this compile), for the next compile: an entry that is the previous lockfile's own entry object
   * keeps the stamp computed for it, every other one is computed.
   */
  remember(digest: string, lock: Lockfile, sources: Readonly<Record<string, SourceConfig>>): void {
    const out: Record<string, readonly [string, string]> = {};
    for (const name of Object.keys(lock.sources).sort()) {
      const config = sources[name];
      if (config === undefined) continue;
      const locked = lock.sources[name]!;
      const known = this.computed.get(name);
      out[name] = [
        canonicalJson(config),
        known !== undefined && known.locked === locked ? known.stamp : sourceInputs(name, config, locked),
      ];
    }
    this.cache.setDerived(LOCK_STAMPS, digest, out);
  }
}
