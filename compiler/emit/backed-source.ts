/**
 * A compiled source that holds no parsed artifact: its lock entry, plus where its artifact bytes are
 * (the file on disk, or the text when nothing was written). The artifact is parsed, and its tools
 * fingerprinted, only if someone asks (`result.sources[i].artifact`, a drift comparison), so a compile
 * of thousands of sources keeps one source's artifact in memory at a time (docs/reference/cli.md,
 * "Large projects").
 */
import type { Artifact, LockedSource, RegisteredTool, SourceKind } from "schemarouter/internal";
import { parseArtifact, readRegularFileSync } from "schemarouter/internal";
import type { CompiledSource } from "./lockfile.js";
import type { OutputFile } from "./write.js";

export type Register = (name: string, kind: SourceKind, artifact: Artifact) => RegisteredTool[];

/**
 * `artifactFile`: the artifact as an output (its `contents` may be read lazily); `bytes` gives the
 * artifact's bytes when it is parsed.
 */
export function backedSource(
  name: string,
  artifactPath: string,
  artifactFile: OutputFile,
  lockEntry: LockedSource,
  register: Register,
): CompiledSource {
  let artifact: Artifact | undefined;
  let tools: RegisteredTool[] | undefined;
  const getArtifact = (): Artifact => {
    artifact ??= parseArtifact(artifactFile.contents, artifactFile.path);
    return artifact;
  };
  return {
    name,
    artifactPath,
    artifactFile,
    lockEntry,
    get artifactText() {
      return artifactFile.contents;
    },
    get artifact() {
      return getArtifact();
    },
    get tools() {
      tools ??= register(name, lockEntry.kind, getArtifact());
      return tools;
    },
  };
}

/**
 * An output whose contents are the file at `path`, read (once) when first asked for; `unchanged`
 * says whether this compile found it already current (nothing written) or wrote it. `readFrom` names
 * the file that holds the contents right now (a staged temp file until the compile commits).
 */
export function lazyFile(path: string, unchanged: boolean, readFrom: () => string = () => path): OutputFile {
  let text: string | undefined;
  return {
    path,
    ...(unchanged ? { unchanged: true } : {}),
    get contents() {
      text ??= readRegularFileSync(readFrom()).toString("utf8");
      return text;
    },
  };
}
