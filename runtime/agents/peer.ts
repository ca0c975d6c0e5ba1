/**
 * Agent frameworks are optional peer dependencies, imported only when their adapter is used. A
 * missing one is a typed error (OPTIONAL_DEPENDENCY_MISSING) that names the package to install.
 */
export { loadPeer } from "../errors/optional-peer.js";
