/**
 * The GitHub REST catalog for latency benchmarks: `@octokit/openapi`'s api.github.com.json compiled
 * with the built compiler (resolveSource + compileSource, as `schemarouter compile` does, without
 * writing anything), registered into a Registry, plus a fixed set of realistic requests.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSource, resolveSource } from "../../compiler/dist/compile/compile.js";
import { Registry } from "../../runtime/dist/load/registry.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Absolute path of the GitHub REST description shipped in @octokit/openapi. */
export function githubSpecPath() {
  const require = createRequire(join(ROOT, "package.json"));
  return join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json");
}

/** Compiles the GitHub REST description into a registry (timed by the caller). */
export async function githubRegistry() {
  const result = await resolveSource(
    "github",
    { kind: "openapi", location: githubSpecPath() },
    { cwd: ROOT, env: {}, allowInsecureHttp: false },
  );
  const out = join(ROOT, "bench", ".tmp", "github");
  const compiled = compileSource("github", "openapi", result, {
    lockfile: join(out, "schemarouter.lock.json"),
    outDir: out,
  });
  return new Registry(compiled.tools);
}

/** Requests an agent might make of the GitHub API (free text, some with requested fields). */
export const GITHUB_QUERIES = [
  { query: "list open pull requests for a repository" },
  { query: "get the star count of a repository", fields: ["stargazers_count"] },
  { query: "create an issue comment" },
  { query: "list issues assigned to a user" },
  { query: "get the contents of a file in a repository" },
  { query: "list commits on a branch" },
  { query: "get branch protection rules" },
  { query: "delete a repository webhook" },
  { query: "list workflow runs for a repository" },
  { query: "download workflow run logs" },
  { query: "get the latest release of a repository" },
  { query: "list repository collaborators and their permissions" },
  { query: "search code across repositories" },
  { query: "get a user's public profile", fields: ["login", "name", "followers"] },
  { query: "list the organization members" },
  { query: "create a gist" },
  { query: "list notifications for the authenticated user" },
  { query: "get the combined status for a commit reference" },
  { query: "list check runs for a commit" },
  { query: "merge a pull request" },
  { query: "list review comments on a pull request" },
  { query: "get repository traffic views" },
  { query: "list dependabot alerts for a repository" },
  { query: "list code scanning alerts" },
  { query: "get the rate limit status" },
  { query: "list repository topics" },
  { query: "add labels to an issue" },
  { query: "list deployments and their statuses" },
  { query: "get a repository's default branch", fields: ["default_branch"] },
  { query: "list secrets for a repository environment" },
];
