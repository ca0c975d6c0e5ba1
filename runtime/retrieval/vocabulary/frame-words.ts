/**
 * Frame words (docs/runtime/retrieval-and-planning.md, "Frame words"): general-English words that say
 * where, when, how much or by what act a quantity is asked for, never which quantity — "how warm it is
 * *outside*", "barometric *reading*", "how sticky the weather *feels*". A request's need does not have
 * to have them covered; they still rank. Every list is a closed word class of English grammar
 * (prepositions, adverbs of place, time and degree, copular and light verbs) or the nouns for the act
 * of measuring, never a catalog's vocabulary. Nouns that name a medium or a place a quantity is of
 * ("ground", "sky", "soil", "station") are not frame words: they change what is measured.
 */

/** Prepositions not already in the stop-word or filler lists. */
const PREPOSITIONS = [
  "near",
  "against",
  "versus",
  "vs",
  "toward",
  "towards",
  "onto",
  "upon",
  "along",
  "among",
  "amid",
  "around",
  "beside",
  "beneath",
  "beyond",
  "throughout",
  "underneath",
  "without",
  "off",
];

/**
 * Adverbs (and adverbial adjectives) of place and direction. Not "indoors", "inside": indoor values are
 * quantities of their own (an indoor air temperature is not the weather's), so they stay concepts.
 */
const PLACE_ADVERBS = [
  "outside",
  "outdoors",
  "outdoor",
  "nearby",
  "overhead",
  "offshore",
  "onshore",
  "down",
  "downward",
  "downwards",
  "upward",
  "upwards",
  "away",
  "everywhere",
  "somewhere",
  "anywhere",
  "site",
  "spot",
];

/** Adverbs and nouns of time of day that frame when, not which period a quantity sums over. */
const TIME_WORDS = [
  "night",
  "tonight",
  "nighttime",
  "morning",
  "afternoon",
  "evening",
  "daytime",
  "yesterday",
  "tomorrow",
  "soon",
  "later",
  "earlier",
  "session",
];

/** Adverbs of degree ("how *strongly*", "*very* top"). */
const DEGREE_ADVERBS = [
  "very",
  "quite",
  "really",
  "rather",
  "fairly",
  "extremely",
  "highly",
  "strongly",
  "roughly",
  "approximately",
  "exactly",
];

/** Copular and light verbs, every inflection: they carry no quantity ("it *gets*", "it *feels*"). */
const LIGHT_VERBS = [
  "get",
  "gets",
  "got",
  "getting",
  "gotten",
  "become",
  "becomes",
  "became",
  "becoming",
  "seem",
  "seems",
  "seemed",
  "feel",
  "feels",
  "felt",
  "appear",
  "appears",
  "appeared",
  "remain",
  "remains",
  "remained",
  "stay",
  "stays",
  "stayed",
  "take",
  "takes",
  "took",
  "taking",
  "taken",
  "come",
  "comes",
  "came",
  "coming",
  "go",
  "goes",
  "went",
  "going",
  "gone",
  "is",
  "are",
  "was",
  "were",
  "be",
];

/** Nouns for the act or instrument of measuring, not for what is measured. */
const MEASURING_NOUNS = [
  "reading",
  "readings",
  "readout",
  "readouts",
  "measurement",
  "measurements",
  "gauge",
  "gauges",
  "sensor",
  "sensors",
  "content",
];

/** Every frame word, lower case. */
export const FRAME_WORDS: ReadonlySet<string> = new Set([
  ...PREPOSITIONS,
  ...PLACE_ADVERBS,
  ...TIME_WORDS,
  ...DEGREE_ADVERBS,
  ...LIGHT_VERBS,
  ...MEASURING_NOUNS,
]);
