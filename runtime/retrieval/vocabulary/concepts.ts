/**
 * What a free-text request asks for, for rejection and its explanation
 * (docs/runtime/retrieval-and-planning.md, "Unsupported requests"): the request splits into needs at
 * "and", commas and semicolons; each need has its concept words (filler words and verbs dropped),
 * the units written in it (vocabulary/units.ts) and, per word, whether it may be an argument value
 * (a word after "for" or a spatial preposition, a number, a name or code in capitals such as `ACME`,
 * a capitalised word after "in"/"at"/"from" such as `Paris`) rather than a concept. Frame words (vocabulary/frame-words.ts:
 * "outside", "reading", "feels") are not concepts. A number with a unit ("ten metres down", "at 10 m")
 * is a stated quantity — one token (`10m`, as a qualifier value is written) that the field must
 * declare — not a requested unit.
 */
import { STOP_WORDS, tokenize } from "../tokenize.js";
import { FRAME_WORDS } from "./frame-words.js";
import { DESTRUCTIVE_VERBS, READ_VERBS, WRITE_VERBS } from "./intent.js";
import { synonymsOf } from "./synonyms.js";
import { findUnits, type UnitMention } from "./units.js";

/** Words that say how or what to fetch, never which quantity: they never need covering. */
export const FILLER_WORDS: ReadonlySet<string> = new Set([
  ...READ_VERBS.filter((verb) => verb !== "count"),
  ...WRITE_VERBS,
  ...DESTRUCTIVE_VERBS,
  "data",
  "dataset",
  "value",
  "values",
  "information",
  "info",
  "detail",
  "details",
  "latest",
  "last",
  "current",
  "currently",
  "recent",
  "recently",
  "now",
  "today",
  "need",
  "needs",
  "like",
  "know",
  "let",
  "provide",
  "return",
  "some",
  "all",
  "each",
  "every",
  "there",
  "here",
  "have",
  "has",
  "had",
  "did",
  "will",
  "should",
  "must",
  "may",
  "might",
  "just",
  "also",
  "only",
  "about",
  "above",
  "below",
  "over",
  "under",
  "per",
  "via",
  "using",
  "across",
  "between",
  "within",
  "during",
  "after",
  "before",
  "since",
  "until",
  "up",
  "out",
  "then",
  "than",
  "so",
  "such",
  "these",
  "those",
  "them",
  "they",
  "he",
  "she",
  "his",
  "her",
  "him",
  "one",
  "ones",
  "am",
  "been",
  "being",
  "were",
  "not",
  "no",
  "if",
  "why",
  "whether",
  "computed",
  "calculated",
  "measured",
  "observed",
  "reported",
  "given",
  "specific",
  "particular",
  "certain",
  "new",
  "available",
  "much",
  "very",
  "more",
  "most",
  "less",
  "least",
  "when",
  "where",
  "does",
  "do",
  "using",
]);

/**
 * Words after which an argument value or a reference point follows ("for Busan", "two metres *above*
 * the ground", "*below* the top layer"), and the words that end that slot. A reference point locates a
 * quantity; like a value, it is a concept only when some ranked endpoint knows it.
 */
const VALUE_SLOT_START: ReadonlySet<string> = new Set(["for", "above", "below", "beneath", "underneath"]);
const VALUE_SLOT_END: ReadonlySet<string> = new Set([
  "in",
  "at",
  "over",
  "with",
  "per",
  "from",
  "on",
  "during",
  "between",
  "by",
  "since",
  "until",
  "to",
  "of",
]);

/** Cardinal numbers written as words, with their values (a quantity "ten metres" is `10m`). */
const NUMBER_VALUES: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  fifty: 50,
  hundred: 100,
  thousand: 1000,
};

/** Cardinal numbers written as words ("two integers"): quantities, hence possible values. */
const NUMBER_WORDS: ReadonlySet<string> = new Set([
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "twenty",
  "hundred",
  "thousand",
  "million",
  "dozen",
  "both",
  "pair",
  "couple",
]);

/** A capitalised word right after one of these is a name ("in Paris", "from Seoul"). */
const PLACE_BEFORE: ReadonlySet<string> = new Set(["in", "at", "from", "near", "around", "to", "of"]);

export interface RequestedConcept {
  /** The word as the request wrote it. */
  readonly text: string;
  /** Its tokens: the word's own first, then its synonyms (any of them covers the concept). */
  readonly tokens: readonly string[];
  /** The word may be an argument value (after "for", a number, a name or code in capitals). */
  readonly value: boolean;
  /**
   * The word is a participle of a write or destructive verb used of the thing asked for ("*uploaded*
   * files", "*deleted* issues"): it names how the thing came to be, which a read endpoint listing it
   * need not declare (route.ts).
   */
  readonly participle?: boolean;
}

/** Stems of the write and destructive verbs (`upload`, `delete`). */
const ACTION_STEMS: ReadonlySet<string> = new Set(
  [...WRITE_VERBS, ...DESTRUCTIVE_VERBS].flatMap((verb) => tokenize(verb)),
);

/**
 * A past participle (-ed, -en) of a write or destructive verb ("uploaded", "forgotten"); not an -ing
 * form, which often names the thing itself ("opening price", "closing time").
 */
const isActionParticiple = (lower: string, token: string): boolean =>
  /(?:ed|en)$/u.test(lower) && lower !== token && ACTION_STEMS.has(token);

export interface RequestedUnit {
  readonly text: string;
  readonly code: string;
}

export interface Need {
  /** The need as the request wrote it. */
  readonly text: string;
  readonly concepts: readonly RequestedConcept[];
  readonly units: readonly RequestedUnit[];
}

/** A number right before a unit mention: digits, or a number word ("ten", "a hundred"). */
const NUMBER_BEFORE = /(?:^|[\s(])(\d+(?:\.\d+)?|\p{L}+)\s*$/u;

/**
 * The quantity a unit mention is the unit of, when a number comes right before it ("ten metres",
 * "10 m"): its start in the text and its value token (`10m`). Only simple units (no `/`, no `.`):
 * "10 m/s" still asks for m/s.
 */
function quantityAt(text: string, mention: UnitMention): { start: number; token: string } | undefined {
  if (/[/.]/u.test(mention.code)) return undefined;
  const before = NUMBER_BEFORE.exec(text.slice(0, mention.start));
  if (before === null) return undefined;
  const written = before[1]!;
  const value = /^\d/u.test(written) ? written : NUMBER_VALUES[written.toLowerCase()];
  if (value === undefined) return undefined;
  const start = mention.start - before[0].length + before[0].indexOf(written);
  return { start, token: `${value}${mention.code}`.toLowerCase() };
}

const UNKNOWN_UNIT =
  /(^|\s)in\s+((?=[^\s,;]*[/\d]|[a-z]+[A-Z])[A-Za-zµμΩ°%][A-Za-z0-9µμΩ°%/·.^*-]*)(?=[\s,;]|$)/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
const SEPARATOR = /\s+(?:and|&|as well as|plus)\s+|[,;]+/iu;

/** A name or code written in capitals (`ACME`, `PBE`, `HSE06`, `GitHub`): possibly a value. */
function isProperNoun(word: string): boolean {
  return /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word) || /^\p{Lu}\p{Ll}+\p{Lu}/u.test(word);
}

function needOf(text: string): Need | undefined {
  const units: RequestedUnit[] = [];
  const quantities: RequestedConcept[] = [];
  let rest = "";
  let at = 0;
  for (const mention of findUnits(text)) {
    const quantity = quantityAt(text, mention);
    if (quantity !== undefined && quantity.start >= at) {
      const written = text.slice(quantity.start, mention.end);
      quantities.push({ text: written, tokens: [quantity.token], value: false });
      rest += `${text.slice(at, quantity.start)} , `;
    } else {
      units.push({ text: text.slice(mention.start, mention.end), code: mention.code });
      rest += `${text.slice(at, mention.start)} , `;
    }
    at = mention.end;
  }
  rest += text.slice(at);
  // A unit-shaped word after "in" that the unit vocabulary does not know (`MJ/m2`, `degR`) is still
  // a requested unit: a field declaring another unit does not cover it.
  rest = rest.replace(UNKNOWN_UNIT, (_whole, lead: string, unit: string) => {
    units.push({ text: unit, code: unit });
    return `${lead} , `;
  });
  const concepts: RequestedConcept[] = [];
  let slot = false;
  let previous = "";
  for (const match of rest.matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/u, "");
    const lower = word.toLowerCase();
    if (VALUE_SLOT_START.has(lower)) {
      slot = true;
      continue;
    }
    if (VALUE_SLOT_END.has(lower)) slot = false;
    const placed = PLACE_BEFORE.has(previous) && /^\p{Lu}/u.test(word);
    previous = lower;
    if (STOP_WORDS.has(lower) || FILLER_WORDS.has(lower) || FRAME_WORDS.has(lower)) continue;
    const value = slot || placed || /^\p{N}+$/u.test(word) || NUMBER_WORDS.has(lower) || isProperNoun(word);
    for (const token of tokenize(word)) {
      if (concepts.some((concept) => concept.tokens[0] === token)) continue;
      const participle = isActionParticiple(lower, token);
      concepts.push({
        text: word,
        tokens: [token, ...synonymsOf(token)],
        value,
        ...(participle ? { participle } : {}),
      });
    }
  }
  for (const quantity of quantities)
    if (!concepts.some((concept) => concept.tokens[0] === quantity.tokens[0])) concepts.push(quantity);
  if (concepts.length === 0 && units.length === 0) return undefined;
  return { text: text.trim(), concepts, units };
}

/** The needs of a request's free text, in request order (empty when it names nothing to cover). */
export function needsOf(query: string): Need[] {
  const needs: Need[] = [];
  query
    .normalize("NFKC")
    .split(SEPARATOR)
    .forEach((part) => {
      const need = needOf(part);
      if (need !== undefined) needs.push(need);
    });
  return needs;
}
