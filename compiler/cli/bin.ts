#!/usr/bin/env node
/** The `schemarouter` executable. */
import { main } from "./program.js";

// A reader that closes the pipe early (`schemarouter inspect | head`) is not an error: exit quietly
// with the code so far instead of a stack trace (docs/reference/cli.md).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2));
