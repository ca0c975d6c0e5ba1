/**
 * Agent frameworks are optional peer dependencies, imported only when their adapter is used. A
 * missing one is a typed error (OPTIONAL_DEPENDENCY_MISSING) that names the package to install.
 */
import { SchemaRouterError } from "../errors/errors.js";

export async function loadPeer<T>(dependency: string, adapter: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new SchemaRouterError(
      "OPTIONAL_DEPENDENCY_MISSING",
      `${adapter} needs the optional peer dependency ${dependency}: run \`npm install ${dependency}\`.`,
      { dependency },
      { cause: error },
    );
  }
}
