/**
 * The one writer loop: emitters return `{ path, contents }[]`; this writes them atomically (temp file
 * then rename), skips unchanged files, honours dry-run, and in check mode only reports what is stale.
 */
import { access, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export interface OutputFile {
  readonly path: string;
  readonly contents: string;
  /** The contents were read from `path` and verified during this compile: nothing to compare or write. */
  readonly unchanged?: boolean;
}

/** An output that is the file on disk as just read (`bytes`); decoded only if someone reads it. */
export function fileOnDisk(path: string, bytes: Uint8Array): OutputFile {
  let text: string | undefined;
  return {
    path,
    unchanged: true,
    get contents() {
      text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
      return text;
    },
  };
}

export interface WriteResult {
  readonly written: string[];
  readonly unchanged: string[];
  readonly stale: string[];
}

export async function writeOutputs(
  files: readonly OutputFile[],
  mode: "write" | "dry-run" | "check",
): Promise<WriteResult> {
  const result: WriteResult = { written: [], unchanged: [], stale: [] };
  for (const file of files) {
    if (file.unchanged === true) {
      result.unchanged.push(file.path);
      continue;
    }
    const current = await readFile(file.path, "utf8").catch(() => undefined);
    if (current === file.contents) {
      result.unchanged.push(file.path);
      continue;
    }
    result.stale.push(file.path);
    if (mode !== "write") continue;
    await writeAtomic(file.path, file.contents);
    result.written.push(file.path);
  }
  return result;
}

export async function writeAtomic(path: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temp, contents, typeof contents === "string" ? "utf8" : undefined);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function fileExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
