/**
 * Inflectional stemming (docs/runtime/retrieval-and-planning.md, "Vocabularies"): plurals, `-ed`,
 * `-ing` and a final silent `e`, after Porter's steps 1a, 1b and 5. Derivational suffixes (`-ation`,
 * `-ness`, …) are kept: they change what a word names. The same function runs on catalog text and on
 * requests, so both sides always meet (`closing`/`close` → `close`, `averaging`/`average` → `averag`).
 */

const VOWEL = /[aeiou]/;

function isConsonant(word: string, i: number): boolean {
  const ch = word[i]!;
  if (VOWEL.test(ch)) return false;
  if (ch === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's measure m: the number of vowel-consonant sequences in `word`. */
function measure(word: string): number {
  let m = 0;
  let i = 0;
  const n = word.length;
  while (i < n && isConsonant(word, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(word, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(word, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (!isConsonant(word, i)) return true;
  return false;
}

/** Ends consonant-vowel-consonant, the last consonant not w, x or y (`hop`, `clos`). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  if (!isConsonant(word, n - 1) || isConsonant(word, n - 2) || !isConsonant(word, n - 3)) return false;
  return !"wxy".includes(word[n - 1]!);
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** Plurals (step 1a, keeping `ies` → `y` so `humidities` meets `humidity`). */
function plural(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) {
    return word.slice(0, -1);
  }
  return word;
}

/** `-eed`, `-ed`, `-ing` (step 1b) with its clean-up of the remaining stem. */
function participle(word: string): string {
  if (word.endsWith("eed")) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  let base: string | undefined;
  if (word.endsWith("ed") && hasVowel(word.slice(0, -2))) base = word.slice(0, -2);
  else if (word.endsWith("ing") && hasVowel(word.slice(0, -3))) base = word.slice(0, -3);
  if (base === undefined || base.length < 3) return word;
  if (base.endsWith("at") || base.endsWith("bl") || base.endsWith("iz")) return `${base}e`;
  if (endsDoubleConsonant(base) && !"lsz".includes(base[base.length - 1]!)) return base.slice(0, -1);
  if (measure(base) === 1 && endsCvc(base)) return `${base}e`;
  return base;
}

/** A final `e` (step 5a) and a final double `l` (step 5b). */
function finalE(word: string): string {
  if (word.endsWith("e")) {
    const base = word.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) return base;
  }
  if (word.endsWith("ll") && measure(word) > 1) return word.slice(0, -1);
  return word;
}

/**
 * The stem of a lower-case token. Tokens of three letters or fewer and tokens with a digit are kept
 * as they are (`gas`, `10m`, `h2o`).
 */
export function stem(token: string): string {
  if (token.length <= 3 || /\p{N}/u.test(token)) return token;
  if (!/^[a-z]+$/.test(token)) return plural(token);
  return finalE(participle(plural(token)));
}
