/**
 * Word vocabularies (docs/runtime/retrieval-and-planning.md, "Vocabularies"): general-English
 * abbreviations that name the same thing as a full word (`repo` = repository), canonicalised on both
 * sides of retrieval, and description-level words that people use for a measured quantity without
 * naming it ("how warm" → temperature, "cost" → price), expanded on the request side only. Every list
 * here is general English, never a catalog's own vocabulary.
 */
import { stem } from "./stem.js";

/** Abbreviation → the full word it abbreviates (both sides: catalog text and requests). */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  repo: "repository",
  org: "organization",
  organisation: "organization",
  config: "configuration",
  info: "information",
  env: "environment",
  msg: "message",
  desc: "description",
  num: "number",
  qty: "quantity",
  avg: "average",
  addr: "address",
  img: "image",
  doc: "document",
  spec: "specification",
  pkg: "package",
  dir: "directory",
  attr: "attribute",
  param: "parameter",
  pref: "preference",
  perm: "permission",
  temp: "temperature",
  stat: "statistic",
  admin: "administrator",
  auth: "authentication",
  del: "delete",
  colour: "color",
  metre: "meter",
  centre: "center",
};

/**
 * Description-level word → words that name the quantity in declared fields. The request keeps the
 * word; the alternatives are added (and count as the same requested concept).
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  warm: ["temperature"],
  warmth: ["temperature"],
  hot: ["temperature"],
  heat: ["temperature"],
  cold: ["temperature"],
  chilly: ["temperature"],
  freezing: ["temperature"],
  humid: ["humidity"],
  muggy: ["humidity"],
  rain: ["precipitation", "rainfall"],
  rainfall: ["precipitation", "rain"],
  windy: ["wind"],
  breeze: ["wind"],
  barometric: ["pressure"],
  sunlight: ["radiation", "solar"],
  sunshine: ["radiation", "solar"],
  irradiance: ["radiation", "flux"],
  solar: ["shortwave", "sun", "irradiance"],
  ocean: ["sea", "marine"],
  marine: ["sea", "ocean"],
  sea: ["ocean", "marine"],
  cost: ["price"],
  costs: ["price"],
  expensive: ["price"],
  cheap: ["price"],
  price: ["cost"],
  heavy: ["weight", "mass", "density"],
  weigh: ["weight", "mass"],
  weight: ["mass"],
  mass: ["weight"],
  fast: ["speed", "velocity"],
  slow: ["speed", "velocity"],
  quick: ["speed"],
  velocity: ["speed"],
  speed: ["velocity"],
  tall: ["height"],
  far: ["distance"],
  old: ["age"],
  big: ["size"],
  large: ["size"],
  small: ["size"],
  wide: ["width"],
  deep: ["depth"],
  long: ["length"],
  dense: ["density"],
  many: ["count", "number"],
  number: ["count"],
  count: ["number", "total"],
  total: ["count", "sum"],
  when: ["date", "time"],
  where: ["location", "place"],
  who: ["user", "owner", "author"],
  author: ["creator", "user"],
  owner: ["user"],
  picture: ["image", "photo"],
  photo: ["image", "picture"],
  image: ["picture", "photo"],
  email: ["mail"],
  mail: ["email"],
  settings: ["configuration", "preference"],
  setting: ["configuration", "preference"],
  remove: ["delete"],
  erase: ["delete"],
  delete: ["remove"],
  // Measured quantities (docs/runtime/retrieval-and-planning.md, "Vocabularies"). Source: WordNet 3.1
  // — an adjective's attribute noun (warm → temperature), a noun's derivationally related forms
  // (humid ↔ humidity, dense ↔ density), its synset and hyponyms (gale, swell, drizzle), and, for a
  // measuring instrument, the quantity its gloss says it measures (barometer → pressure).
  cool: ["temperature"],
  hotness: ["temperature"],
  coldness: ["temperature"],
  thermometer: ["temperature"],
  thermal: ["temperature"],
  humidness: ["humidity"],
  mugginess: ["humidity"],
  sticky: ["humidity"],
  steamy: ["humidity"],
  damp: ["humidity"],
  dampness: ["humidity"],
  moist: ["humidity"],
  moisture: ["humidity"],
  wet: ["humidity"],
  wetness: ["humidity"],
  hygrometer: ["humidity"],
  breezy: ["wind"],
  blowy: ["wind"],
  blow: ["wind"],
  gale: ["wind"],
  zephyr: ["wind"],
  airflow: ["wind"],
  anemometer: ["wind", "speed"],
  rapid: ["speed"],
  speedy: ["speed"],
  drizzle: ["precipitation"],
  downpour: ["precipitation"],
  downfall: ["precipitation"],
  shower: ["precipitation"],
  rained: ["precipitation", "rain"],
  raining: ["precipitation", "rain"],
  barometer: ["pressure"],
  insolation: ["radiation", "solar"],
  irradiation: ["radiation"],
  pyranometer: ["radiation", "solar"],
  denseness: ["density"],
  compact: ["density"],
  compactness: ["density"],
  tallness: ["height"],
  swell: ["wave"],
  surf: ["wave"],
  breaker: ["wave"],
  billow: ["wave"],
  choppy: ["wave"],
  choppiness: ["wave"],
  flow: ["current"],
  stream: ["current"],
  magnet: ["magnetization"],
  magnetic: ["magnetization"],
  magnetism: ["magnetization"],
  magnetize: ["magnetization"],
  magnetized: ["magnetization"],
  magnetise: ["magnetization"],
  magnetised: ["magnetization"],
  profit: ["earnings"],
  profits: ["earnings"],
  lucre: ["earnings"],
  finish: ["close"],
  finished: ["close"],
  final: ["close"],
  conclusion: ["close"],
  worth: ["price", "value"],
  valuation: ["price", "value"],
  payout: ["dividend"],
  distribution: ["dividend"],
  fell: ["precipitation"],
  fallen: ["precipitation"],
  stock: ["share"],
  shares: ["share"],
  ended: ["close"],
  shut: ["close"],
  exchange: ["market"],
  valued: ["price", "value"],
  income: ["earnings", "yield"],
  relative: ["ratio"],
  top: ["surface"],
  topmost: ["surface"],
  uppermost: ["surface"],
  sun: ["solar", "radiation"],
  scattered: ["diffuse"],
  shareholder: ["share"],
  shareholders: ["share"],
};

const ABBREVIATION_STEMS = new Map<string, string>(
  Object.entries(ABBREVIATIONS).map(([short, full]) => [stem(short), stem(full)]),
);

/** The canonical form of a stemmed token (`repo` → `repository`); the token itself otherwise. */
export function canonicalWord(token: string): string {
  return ABBREVIATION_STEMS.get(token) ?? token;
}

const SYNONYM_STEMS = new Map<string, readonly string[]>();
for (const [word, alternatives] of Object.entries(SYNONYMS)) {
  const key = canonicalWord(stem(word));
  const list = [...(SYNONYM_STEMS.get(key) ?? [])];
  for (const alternative of alternatives) {
    const token = canonicalWord(stem(alternative));
    if (token !== key && !list.includes(token)) list.push(token);
  }
  SYNONYM_STEMS.set(key, list);
}

/** Alternatives of a (stemmed, canonical) request token, in a fixed order; empty when none. */
export function synonymsOf(token: string): readonly string[] {
  return SYNONYM_STEMS.get(token) ?? [];
}
