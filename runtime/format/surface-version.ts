/**
 * Version of what the retrieval surface holds for an endpoint (tokenizer, vocabularies, keys, component
 * bits). Bump it with any change to `tokenize`, `addEntry` (runtime/retrieval/) or the keys: a retrieval
 * index stored at compile time records it, and one built by another version is never used
 * (docs/runtime/retrieval-and-planning.md, "Stored index"). It lives under format/ because both the
 * loader (which checks a stored index) and retrieval (which builds one) read it.
 */
export const SURFACE_VERSION = 3;
