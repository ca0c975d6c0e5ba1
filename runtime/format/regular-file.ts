/**
 * Reading a pinned artifact (docs/reference/formats.md): only a regular file is read. A committed
 * symlink to a device (`/dev/zero`) or a pipe would otherwise make a reader wait or read without end;
 * `O_NONBLOCK` keeps even the open of a FIFO with no writer from waiting.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { LoadError } from "../errors/errors.js";

function notAFile(path: string): LoadError {
  return new LoadError(
    "ARTIFACT_INVALID",
    `artifact ${path} is not a regular file; re-run \`schemarouter compile\`.`,
    { path, reason: "not-a-file" },
  );
}

/** The bytes of the regular file at `path`; ARTIFACT_INVALID (not-a-file) for anything else. */
export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw notAFile(path);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The async form, for the runtime's load. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const { open } = await import("node:fs/promises");
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw notAFile(path);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
