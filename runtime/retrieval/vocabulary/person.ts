/**
 * First-person requests (docs/runtime/retrieval-and-planning.md, "Vocabularies"): "list my
 * repositories", "orgs I belong to", "who am I" ask about the caller, which APIs name the
 * authenticated or current user ("List repositories for the authenticated user", "Get current user").
 * The pronouns are stop words, so they never match by themselves; a request that has one gains the
 * words APIs use for the caller, as an added term (a ranking signal, like a synonym).
 */

/** Words that make a request first-person. */
export const FIRST_PERSON: ReadonlySet<string> = new Set(["i", "me", "my", "mine", "myself", "am", "im"]);

/** The words APIs use for the caller (tokenized like every other word before use). */
export const SELF_WORDS: readonly string[] = ["authenticated", "current"];

/** True when the request text is first-person (a pronoun above, as a whole word). */
export function isFirstPerson(text: string): boolean {
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.some(
    (word) => FIRST_PERSON.has(word.replace(/'.*$/, "")) || FIRST_PERSON.has(word.replace(/'/g, "")),
  );
}
