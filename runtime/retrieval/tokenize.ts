/**
 * The one tokenizer used on both sides of retrieval (catalog surfaces and requests): lower-case,
 * split on every non-letter/digit character (snake, kebab, dots, slashes, spaces), split camelCase
 * and acronym boundaries, drop a small stop-word list, stem inflections (vocabulary/stem.ts) and
 * canonicalise abbreviations (vocabulary/synonyms.ts). Units get one canonical token each
 * (vocabulary/units.ts): a declared unit through `unitTokens`, a unit written in a query through
 * `tokenizeQuery` (docs/runtime/retrieval-and-planning.md, "Vocabularies").
 */
import { stem as stemWord } from "./vocabulary/stem.js";
import { canonicalWord } from "./vocabulary/synonyms.js";
import { canonicalUnit, findUnits, unitToken } from "./vocabulary/units.js";

/** The stemmed, canonical form of one lower-case word (`repos` → `repository`, `closing` → `close`). */
export function stem(token: string): string {
  return canonicalWord(stemWord(token));
}

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
 * Tokens of a declared or requested unit: its words (`degC` → degc, deg, c) and, when the unit
 * vocabulary knows it, its canonical unit token (`unit:Cel`).
 */
export function unitTokens(unit: string): string[] {
  const tokens = tokenize(unit);
  const code = canonicalUnit(unit);
  if (code !== undefined && !tokens.includes(unitToken(code))) tokens.push(unitToken(code));
  return tokens;
}

/**
 * Tokens of a request's free text: like `tokenize`, except that each unit written in it ("in
 * degrees Celsius", "in K", "€") becomes its canonical unit token in place of its words.
 */
export function tokenizeQuery(text: string): string[] {
  const mentions = findUnits(text);
  if (mentions.length === 0) return tokenize(text);
  const out: string[] = [];
  const add = (tokens: readonly string[]): void => {
    for (const token of tokens) if (!out.includes(token)) out.push(token);
  };
  let at = 0;
  for (const mention of mentions) {
    add(tokenize(text.slice(at, mention.start)));
    add([unitToken(mention.code)]);
    at = mention.end;
  }
  add(tokenize(text.slice(at)));
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
