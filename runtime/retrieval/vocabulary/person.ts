/**
 * First-person requests (docs/runtime/retrieval-and-planning.md, "Vocabularies"): "list my
 * repositories", "orgs I belong to", "who am I" ask about the caller, which APIs name the
 * authenticated or current user ("List repositories for the authenticated user", "Get current user").
 * The pronouns are stop words, so they never match by themselves; a request that has one gains the
 * words APIs use for the caller, as an added term (a ranking signal, like a synonym).
 */
import { decidingVerbAt, wordsOf } from "./intent.js";

/** Words that make a request first-person. */
export const FIRST_PERSON: ReadonlySet<string> = new Set(["my", "me", "mine", "myself", "am", "im"]);

/** The words APIs use for the caller (tokenized like every other word before use). */
export const SELF_WORDS: readonly string[] = ["authenticated", "current"];

/** Words after which "me" is whom a request is addressed to ("show me", "help me"), not its topic. */
const ADDRESSED: ReadonlySet<string> = new Set(["show", "give", "tell", "help", "let", "get", "find"]);

/**
 * True when the request text is about the caller: it has a pronoun above, or "I" anywhere but as the
 * subject of the request's own verb ("how do I get a user", "I need to list …": intent.ts), which
 * only says who is asking; "me" after "show", "help", … only says whom to answer.
 */
export function isFirstPerson(text: string): boolean {
  const words = wordsOf(text);
  const verb = decidingVerbAt(words);
  return words.some((word, i) => {
    if (word === "i") return verb < 0 || i > verb;
    if (word === "me") return i === 0 || !ADDRESSED.has(words[i - 1]!);
    return FIRST_PERSON.has(word);
  });
}
