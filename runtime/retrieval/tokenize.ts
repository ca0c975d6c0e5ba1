/**
 * The one tokenizer used on both sides of retrieval (catalog surfaces and requests): lower-case,
 * split on every non-letter/digit character (snake, kebab, dots, slashes, spaces), split camelCase
 * and acronym boundaries, drop a small stop-word list, and apply a light plural stemmer.
 */

/** Words too common in requests and descriptions to say anything about a capability. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "any",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "could",
  "do",
  "does",
  "for",
  "from",
  "give",
  "how",
  "i",
  "in",
  "into",
  "is",
  "it",
  "its",
  "me",
  "my",
  "of",
  "on",
  "or",
  "our",
  "please",
  "show",
  "tell",
  "that",
  "the",
  "their",
  "this",
  "to",
  "us",
  "want",
  "was",
  "we",
  "what",
  "which",
  "who",
  "with",
  "would",
  "you",
  "your",
]);

const WORD = /[\p{L}\p{N}]+/gu;
/** camelCase and acronym boundaries: `getUserID` → get|User|ID, `HTTPServer` → HTTP|Server. */
const CAMEL = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+\p{Ll}*|\p{Ll}+/gu;

/**
 * Light plural stemming: `ies` → `y`, `sses` → `ss`, and a final `s` (not `ss`, `us`, `is`) is
 * dropped on words longer than three letters. Deliberately conservative: it never merges words that
 * differ in anything but number.
 */
export function stem(token: string): string {
  if (token.length <= 3 || /\p{N}/u.test(token)) return token;
  if (token.endsWith("ies") && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith("sses")) return token.slice(0, -2);
  if (token.endsWith("s") && !token.endsWith("ss") && !token.endsWith("us") && !token.endsWith("is")) {
    return token.slice(0, -1);
  }
  return token;
}

/**
 * Tokens of `text` in first-occurrence order, without duplicates. A camelCase word yields its parts
 * and the whole lower-cased word (`hPa` → `hpa`, `h`, `pa`), so both spellings match.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (raw: string): void => {
    const lower = raw.toLowerCase();
    if (STOP_WORDS.has(lower)) return;
    const token = stem(lower);
    if (token.length === 0 || seen.has(token)) return;
    seen.add(token);
    out.push(token);
  };
  for (const word of text.normalize("NFKC").match(WORD) ?? []) {
    const parts = word.match(CAMEL) ?? [word];
    push(word);
    if (parts.length > 1) for (const part of parts) push(part);
  }
  return out;
}

/**
 * Normalized key of a logical name for exact matching (`Stargazers Count`, `stargazersCount` and
 * `stargazers_count` all give `stargazers_count`). No stop words, no stemming.
 */
export function normalizeKey(text: string): string {
  const parts: string[] = [];
  for (const word of text.normalize("NFKC").match(WORD) ?? []) {
    for (const part of word.match(CAMEL) ?? [word]) parts.push(part.toLowerCase());
  }
  return parts.join("_");
}
