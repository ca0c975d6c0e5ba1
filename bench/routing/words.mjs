/**
 * The benchmark's own, frozen tokenizer: the plain tokenizer the runtime had when these benchmarks
 * were written (runtime/retrieval/tokenize.ts at 5e9b311: lower-case, split on non-letters/digits and
 * camelCase, a small stop-word list, light plural stemming), copied here so that the baselines and the
 * paraphrase set's naming rule stay the same when the product's tokenizer gains stemming, synonyms or
 * unit vocabularies. Baselines must not inherit product features; the rule must not move with them.
 */

const STOP_WORDS = new Set(
  (
    "a an and any are as at be by can could do does for from give how i in into is it its me my of on or " +
    "our please show tell that the their this to us want was we what which who with would you your"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;
const CAMEL = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+\p{Ll}*|\p{Ll}+/gu;

/** `ies` → `y`, `sses` → `ss`, a final `s` (not `ss`, `us`, `is`) dropped on words longer than three letters. */
function stem(token) {
  if (token.length <= 3 || /\p{N}/u.test(token)) return token;
  if (token.endsWith("ies") && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith("sses")) return token.slice(0, -2);
  if (token.endsWith("s") && !token.endsWith("ss") && !token.endsWith("us") && !token.endsWith("is")) {
    return token.slice(0, -1);
  }
  return token;
}

/** Distinct tokens of `text` in first-occurrence order (a camelCase word yields itself and its parts). */
export function words(text) {
  const out = [];
  const seen = new Set();
  const push = (raw) => {
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
