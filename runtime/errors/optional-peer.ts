/**
 * Optional peer dependencies (the MCP SDK, agent frameworks, better-sqlite3, OpenTelemetry, pg) are
 * imported only when used; a missing one is OPTIONAL_DEPENDENCY_MISSING naming the package to install
 * (docs/common-mistakes.md).
 */
import { SchemaRouterError } from "./errors.js";

export async function loadPeer<T>(dependency: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new SchemaRouterError(
      "OPTIONAL_DEPENDENCY_MISSING",
      `${feature} needs the optional peer dependency ${dependency}: run \`npm install ${dependency}\`.`,
      { dependency },
      { cause: error },
    );
  }
}

/** The MCP SDK, for MCP sources and bindings. */
export const MCP_SDK = "@modelcontextprotocol/sdk";
