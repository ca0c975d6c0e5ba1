/** Version ranges of the plugin allowlist (docs/plugins.md, "The allowlist"). */
import { describe, expect, it } from "vitest";
import { satisfies } from "../../../../compiler/sources/plugin/allowlist.js";

describe("satisfies", () => {
  it.each([
    ["1.2.3", "1.2.3", true],
    ["1.2.4", "1.2.3", false],
    ["1.9.0", "^1.2.3", true],
    ["2.0.0", "^1.2.3", false],
    ["1.2.2", "^1.2.3", false],
    ["0.2.9", "^0.2.3", true],
    ["0.3.0", "^0.2.3", false],
    ["0.0.3", "^0.0.3", true],
    ["0.0.4", "^0.0.3", false],
    ["1.2.9", "~1.2.3", true],
    ["1.3.0", "~1.2.3", false],
    ["1.2.3-beta.1", "^1.2.0", false],
    ["1.2.3", ">=1.0.0", false],
    ["not-a-version", "^1.0.0", false],
  ])("%s in %s → %s", (version, range, want) => {
    expect(satisfies(version, range)).toBe(want);
  });
});
