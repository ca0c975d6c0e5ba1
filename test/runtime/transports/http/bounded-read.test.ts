/** readBounded: declared and received lengths against the limit, and UTF-8 across chunks. */
import { describe, expect, it } from "vitest";
import { readBounded } from "../../../../runtime/transports/http/bounded-read.js";
import { refusal } from "./harness.js";

/** A body stream that records how many chunks were pulled and whether it was destroyed. */
function trackedBody(chunks: readonly string[]) {
  const state = { pulled: 0, destroyed: false };
  const body = {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) {
        state.pulled++;
        yield Buffer.from(chunk);
      }
    },
    destroy() {
      state.destroyed = true;
    },
  };
  return { body, state };
}

describe("readBounded", () => {
  const invalid: [string, string][] = [
    ["letters", "abc"],
    ["a negative number", "-1"],
    ["an exponent", "1e3"],
    ["a fraction", "1.5"],
    ["an empty value", ""],
    ["an unsafe integer", "99999999999999999999"],
  ];
  it.each(invalid)(
    "refuses a Content-Length of %s without reading (RESPONSE_NOT_JSON)",
    async (_name, value) => {
      const { body, state } = trackedBody(["{}"]);
      const error = await refusal(readBounded(body, 1024, value, "t.e"));
      expect(error.code).toBe("RESPONSE_NOT_JSON");
      expect(state).toEqual({ pulled: 0, destroyed: true });
    },
  );

  it("refuses a declared length over the limit without reading (RESPONSE_TOO_LARGE)", async () => {
    const { body, state } = trackedBody(["{}"]);
    expect((await refusal(readBounded(body, 1024, "1025", "t.e"))).code).toBe("RESPONSE_TOO_LARGE");
    expect(state).toEqual({ pulled: 0, destroyed: true });
  });

  it("counts received bytes when the declared length lies (RESPONSE_TOO_LARGE)", async () => {
    const { body, state } = trackedBody(["x".repeat(600), "x".repeat(600), "x".repeat(600)]);
    expect((await refusal(readBounded(body, 1024, "10", "t.e"))).code).toBe("RESPONSE_TOO_LARGE");
    expect(state).toEqual({ pulled: 2, destroyed: true });
  });

  it("decodes multi-byte UTF-8 split across chunks", async () => {
    const bytes = Buffer.from('"grüße"');
    const chunks = [bytes.subarray(0, 4), bytes.subarray(4)].map((part) => part.toString("latin1"));
    const body = {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) yield Buffer.from(chunk, "latin1");
      },
      destroy() {},
    };
    expect(await readBounded(body, 1024, undefined, "t.e")).toBe('"grüße"');
  });
});
