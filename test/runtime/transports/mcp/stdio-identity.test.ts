/**
 * A stdio binding's command matches the locked one after relative paths are normalised
 * (docs/sources/mcp.md): `./node_modules/x` and `node_modules/x` name one file; other differences
 * still do not match.
 */
import { describe, expect, it } from "vitest";
import { sameStdioIdentity, stdioIdentity } from "../../../../runtime/transports/mcp/target.js";

describe("sameStdioIdentity", () => {
  it.each([
    [
      ["node", ["./node_modules/x/dist/index.js"]],
      ["node", ["node_modules/x/dist/index.js"]],
    ],
    [
      ["./bin/server", ["--port", "1"]],
      ["bin/server", ["--port", "1"]],
    ],
    [
      ["node", ["a//b/./c.js"]],
      ["node", ["a/b/c.js"]],
    ],
    [
      ["node", ["dir with space/./s.js"]],
      ["node", ["dir with space/s.js"]],
    ],
  ])("%j matches %j", ([ca, aa], [cb, ab]) => {
    expect(
      sameStdioIdentity(
        stdioIdentity(ca as string, aa as string[]),
        stdioIdentity(cb as string, ab as string[]),
      ),
    ).toBe(true);
  });

  it.each([
    [
      ["node", ["node_modules/x/index.js"]],
      ["node", ["node_modules/y/index.js"]],
    ],
    [
      ["node", ["a.js"]],
      ["node", ["a.js", "--extra"]],
    ],
    [
      ["node", ["../x.js"]],
      ["node", ["x.js"]],
    ],
    [
      ["node", ["--config=./a"]],
      ["node", ["--config=a"]],
    ],
  ])("%j does not match %j", ([ca, aa], [cb, ab]) => {
    expect(
      sameStdioIdentity(
        stdioIdentity(ca as string, aa as string[]),
        stdioIdentity(cb as string, ab as string[]),
      ),
    ).toBe(false);
  });
});
