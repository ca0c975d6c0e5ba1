/**
 * Benchmark 3: type-checking cost. `tsc --noEmit` of a small app calling five GitHub endpoints
 * through schemarouter's generated bindings, against the same app on openapi-typescript types +
 * openapi-fetch. Same compiler options for both: strict, NodeNext, skipLibCheck, no ambient `types`.
 * Before timing, each side's refusals (@ts-expect-error on unselected fields, unknown paths, missing
 * arguments) are checked once in a separate file, so the typing is known to be real; the timed runs
 * check the app alone (an error path's cost is not the common case).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runNode, TMP } from "./lib/child.mjs";
import { BIN, GITHUB_DOCUMENT, PACKAGE, PEERS } from "./lib/paths.mjs";
import { interleave, ratio, summarize } from "./lib/stats.mjs";

// Under a `generated` directory, so the repository's own tsconfig never includes these files.
const DIR = join(TMP, "generated", "typecheck");

const OURS_APP = `import { SchemaRouter } from "schemarouter";
import { createClient } from "./generated/index.js";

export async function main(): Promise<string> {
  const router = await SchemaRouter.load({ root: ".", bindings: { github: { baseUrl: "https://api.github.com" } } });
  const gh = createClient(router).github;
  const repo = await gh.reposGet({ owner: "octo", repo: "hello" }, { fields: ["full_name", "stargazers_count"] });
  const issues = await gh.issuesListForRepo({ owner: "octo", repo: "hello", state: "open" }, { fields: ["[].number", "[].title"] });
  const pull = await gh.pullsGet({ owner: "octo", repo: "hello", pull_number: 1 });
  const user = await gh.usersGetByUsername({ username: "octocat" });
  const commits = await gh.reposListCommits({ owner: "octo", repo: "hello", per_page: 5 }, { fields: ["[].sha"] });
  const stars: number = repo.data.stargazers_count;
  const titles: string[] = issues.data.map((issue) => \`\${issue.number} \${issue.title}\`);
  const shas: string[] = commits.data.map((commit) => commit.sha);
  await router.close();
  return [repo.data.full_name, stars, ...titles, pull.data.title, "login" in user.data ? user.data.login : "", ...shas].join("\\n");
}
`;

const OURS_REFUSED = `import type { GithubClient } from "./generated/github.js";

export async function refused(gh: GithubClient): Promise<void> {
  const repo = await gh.reposGet({ owner: "o", repo: "r" }, { fields: ["full_name"] });
  // @ts-expect-error not selected
  void repo.data.stargazers_count;
  // @ts-expect-error unknown field id
  await gh.reposGet({ owner: "o", repo: "r" }, { fields: ["nope"] });
  // @ts-expect-error missing required argument
  await gh.reposGet({ owner: "o" });
}
`;

const PEER_APP = `import createClient from "openapi-fetch";
import type { paths } from "./generated/github.js";

export async function main(): Promise<string> {
  const gh = createClient<paths>({ baseUrl: "https://api.github.com" });
  const repo = await gh.GET("/repos/{owner}/{repo}", { params: { path: { owner: "octo", repo: "hello" } } });
  const issues = await gh.GET("/repos/{owner}/{repo}/issues", { params: { path: { owner: "octo", repo: "hello" }, query: { state: "open" } } });
  const pull = await gh.GET("/repos/{owner}/{repo}/pulls/{pull_number}", { params: { path: { owner: "octo", repo: "hello", pull_number: 1 } } });
  const user = await gh.GET("/users/{username}", { params: { path: { username: "octocat" } } });
  const commits = await gh.GET("/repos/{owner}/{repo}/commits", { params: { path: { owner: "octo", repo: "hello" }, query: { per_page: 5 } } });
  if (!repo.data || !issues.data || !pull.data || !user.data || !commits.data) throw new Error("request failed");
  const stars: number = repo.data.stargazers_count;
  const titles: string[] = issues.data.map((issue) => \`\${issue.number} \${issue.title}\`);
  const shas: string[] = commits.data.map((commit) => commit.sha);
  return [repo.data.full_name, stars, ...titles, pull.data.title, "login" in user.data ? user.data.login : "", ...shas].join("\\n");
}
`;

const PEER_REFUSED = `import createClient from "openapi-fetch";
import type { paths } from "./generated/github.js";

export async function refused(): Promise<void> {
  const gh = createClient<paths>({ baseUrl: "https://api.github.com" });
  // @ts-expect-error unknown path
  await gh.GET("/repos/{owner}/{repo}/nope", { params: { path: { owner: "o", repo: "r" } } });
  // @ts-expect-error missing required path parameter
  await gh.GET("/repos/{owner}/{repo}", { params: { path: { owner: "o" } } });
}
`;

/** The strict tsconfig both type-check benchmarks use (this one and bench/scale/typecheck.mjs). */
export const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
  files: ["app.ts"],
};

function app(name, source, refused) {
  const dir = join(DIR, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  // A package of its own, so "schemarouter" resolves like an installed dependency.
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `bench-${name}`, private: true, type: "module" }),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(
    join(dir, "tsconfig.refused.json"),
    JSON.stringify({ ...TSCONFIG, files: ["app.ts", "refused.ts"] }, null, 2),
  );
  writeFileSync(join(dir, "app.ts"), source);
  writeFileSync(join(dir, "refused.ts"), refused);
  return dir;
}

export async function benchTypecheck({ runs }) {
  rmSync(DIR, { recursive: true, force: true });
  const ours = app("schemarouter", OURS_APP, OURS_REFUSED);
  symlinkSync(join(PACKAGE, "runtime"), join(ours, "node_modules", "schemarouter"), "dir");
  writeFileSync(
    join(ours, "schemarouter.config.json"),
    JSON.stringify({
      outDir: "generated",
      sources: { github: { kind: "openapi", location: GITHUB_DOCUMENT } },
    }),
  );
  await runNode(BIN, ["compile"], { cwd: ours });
  const peer = app("openapi-typescript", PEER_APP, PEER_REFUSED);
  mkdirSync(join(peer, "generated"), { recursive: true });
  await runNode(PEERS.openapiTypescript, [GITHUB_DOCUMENT, "-o", join(peer, "generated", "github.d.ts")], {
    cwd: peer,
  });
  // Fails (tsc exits non-zero) if an app does not type-check or a refusal is not refused.
  for (const dir of [ours, peer])
    await runNode(PEERS.tsc, ["-p", join(dir, "tsconfig.refused.json")], { cwd: dir });
  const tsc = (dir) => () => runNode(PEERS.tsc, ["-p", join(dir, "tsconfig.json")], { cwd: dir });
  const samples = await interleave(
    runs,
    { schemarouter: tsc(ours), "openapi-typescript": tsc(peer) },
    { warmup: 1 },
  );
  const of = (side, key) => summarize(samples[side].map((sample) => sample[key]));
  const result = {};
  for (const side of ["schemarouter", "openapi-typescript"])
    result[side] = { wallMs: of(side, "wallMs"), cpuMs: of(side, "cpuMs"), maxRssMb: of(side, "maxRssMb") };
  result.wallRatio = ratio(result.schemarouter.wallMs.median, result["openapi-typescript"].wallMs.median);
  result.cpuRatio = ratio(result.schemarouter.cpuMs.median, result["openapi-typescript"].cpuMs.median);
  return result;
}
