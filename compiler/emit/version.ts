/** The compiler version recorded in artifacts (kept equal to package.json by a test). */
export const COMPILER_VERSION = "0.1.0";
