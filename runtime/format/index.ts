/**
 * schemarouter/format — the durable formats: RFC 8785 canonical JSON, SHA-256 fingerprints of endpoints
 * and tools, the MCP remote digest, and the artifact and lockfile format versions
 * (docs/reference/formats.md).
 */
export { ARTIFACT_FORMAT_VERSION, type Artifact } from "./artifact.js";
export {
  canonicalJson,
  digestJson,
  endpointFingerprint,
  fingerprintTool,
  toolFingerprint,
} from "./fingerprint.js";
export { LOCKFILE_VERSION, type Lockfile } from "./lockfile.js";
export { mcpRemoteDigest } from "./mcp-digest.js";
