/**
 * The fixed sample of real OpenAPI documents the differential compares: GitHub REST and documents
 * their providers publish on npm (pinned dev dependencies of this repository, read as installed), plus
 * one small document committed under test/fixtures/specs/real/ (see its README for the source). All
 * were chosen before the differential first ran, for being real provider documents of OpenAPI 3.0 or
 * 3.1 that compile offline; none was written here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../../helpers/project.js";

export interface SampleDocument {
  /** Source name in the compiled artifact, and the document's heading in the differences file. */
  readonly name: string;
  readonly title: string;
  /** Where the document comes from, with its version. */
  readonly source: string;
  readonly location: string;
}

function npm(pkg: string, file: string, title: string, name: string): SampleDocument {
  const root = join(REPO_ROOT, "node_modules", pkg);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  return { name, title, source: `npm \`${pkg}@${version}\`, \`${file}\``, location: join(root, file) };
}

export const SAMPLE: readonly SampleDocument[] = [
  npm("@octokit/openapi", "generated/api.github.com.json", "GitHub REST (api.github.com)", "github"),
  npm("@figma/rest-api-spec", "openapi/openapi.yaml", "Figma REST API", "figma"),
  npm("@directus/specs", "dist/openapi.json", "Directus", "directus"),
  npm("@blockfrost/openapi", "openapi.yaml", "Blockfrost (Cardano)", "blockfrost"),
  npm("rclone-openapi", "openapi.json", "Rclone RC API", "rclone"),
  {
    name: "apisguru",
    title: "APIs.guru",
    source: "committed `test/fixtures/specs/real/apis.guru-2.2.0.yaml` (APIs.guru 2.2.0)",
    location: join(REPO_ROOT, "test/fixtures/specs/real/apis.guru-2.2.0.yaml"),
  },
];
