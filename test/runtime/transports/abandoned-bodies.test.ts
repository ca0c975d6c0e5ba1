/**
 * A response refused before its body is read (Content-Length over the limit, a body over the limit, a
 * redirect) is released without an unhandled error, even when the call's signal aborts afterwards: the
 * client lets go of every abandoned body (the server sees each connection close) and the user's process
 * lives (run in a child process, as a crash would end the runner). No wall-clock race decides the
 * outcome: the child waits for those closes, and its per-request timeout is far above any refusal.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/project.js";

const run = promisify(execFile);

describe("abandoned response bodies", () => {
  it("are refused with typed errors and the process outlives every late abort and timeout", async () => {
    const child = join(REPO_ROOT, "test/fixtures/abandoned-body-child.mjs");
    const { stdout } = await run(process.execPath, [child, join(REPO_ROOT, "runtime/dist")], {
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      codes: ["RESPONSE_TOO_LARGE", "RESPONSE_TOO_LARGE", "TRANSPORT_REFUSED"],
      alive: true,
    });
  });
});
