/**
 * Unit vocabulary (docs/runtime/retrieval-and-planning.md, "Vocabularies"): the spellings of common
 * units, each mapped to one canonical code — the UCUM code where UCUM has one (`Cel`, `K`, `[degF]`,
 * `m/s`, `eV`), the ISO 4217 code for currencies (`EUR`, `USD`). A field's declared unit and a
 * request's units (in `units` or written in the query: "in degrees Celsius", "in kelvin", "in €")
 * both map to the code, so `degC`, `°C`, `Cel` and "degrees Celsius" meet. Unknown units have no code
 * and are matched by their words only.
 */

interface UnitSpelling {
  readonly code: string;
  /** Case-sensitive symbols, recognised anywhere in a query. */
  readonly symbols?: readonly string[];
  /** Case-sensitive symbols that are ordinary words or letters too: recognised only after "in",
   * "as", "per" or a number (`in K`, `20 m`). */
  readonly slotSymbols?: readonly string[];
  /** Case-insensitive words and phrases (spaces also match hyphens). */
  readonly words?: readonly string[];
  /** Case-insensitive words that are ordinary words too ("day", "degrees"): only in a unit slot. */
  readonly slotWords?: readonly string[];
}

const UNITS: readonly UnitSpelling[] = [
  { code: "K", symbols: ["°K", "degK"], slotSymbols: ["K"], words: ["kelvin", "kelvins", "degrees kelvin"] },
  {
    code: "Cel",
    symbols: ["degC", "°C", "℃", "Cel", "deg C"],
    slotSymbols: ["C"],
    words: [
      "celsius",
      "degrees celsius",
      "degree celsius",
      "deg celsius",
      "centigrade",
      "degrees centigrade",
    ],
  },
  {
    code: "[degF]",
    symbols: ["degF", "°F", "℉", "[degF]", "deg F"],
    slotSymbols: ["F"],
    words: ["fahrenheit", "degrees fahrenheit", "degree fahrenheit"],
  },
  {
    code: "deg",
    symbols: ["°"],
    slotSymbols: ["deg"],
    words: ["angular degrees"],
    slotWords: ["degree", "degrees"],
  },
  { code: "rad", slotSymbols: ["rad"], words: ["radian", "radians"] },
  { code: "%", symbols: ["%", "pct"], words: ["percent", "per cent", "percentage", "percentages"] },
  { code: "[ppm]", symbols: ["ppm"], words: ["parts per million"] },
  { code: "m", slotSymbols: ["m"], words: ["metre", "metres", "meter", "meters"] },
  { code: "km", symbols: ["km"], words: ["kilometre", "kilometres", "kilometer", "kilometers"] },
  { code: "cm", symbols: ["cm"], words: ["centimetre", "centimetres", "centimeter", "centimeters"] },
  { code: "mm", symbols: ["mm"], words: ["millimetre", "millimetres", "millimeter", "millimeters"] },
  { code: "[ft_i]", symbols: ["ft"], slotWords: ["foot", "feet"] },
  { code: "[in_i]", words: ["inch", "inches"] },
  { code: "[mi_i]", slotWords: ["mile", "miles"] },
  {
    code: "m/s",
    symbols: ["m/s", "m s-1", "m.s-1", "m·s⁻¹", "m s⁻¹", "mps"],
    words: ["metres per second", "meters per second", "metre per second", "meter per second"],
  },
  {
    code: "km/h",
    symbols: ["km/h", "km/hr", "kph", "kmh", "km h-1"],
    words: ["kilometres per hour", "kilometers per hour", "kilometre per hour", "kilometer per hour"],
  },
  { code: "[kn_i]", symbols: ["kn", "kt", "kts"], words: ["knot", "knots"] },
  { code: "[mi_i]/h", symbols: ["mph"], words: ["miles per hour", "mile per hour"] },
  { code: "Pa", symbols: ["Pa"], words: ["pascal", "pascals"] },
  {
    code: "hPa",
    symbols: ["hPa", "mbar", "mb"],
    words: ["hectopascal", "hectopascals", "millibar", "millibars"],
  },
  { code: "kPa", symbols: ["kPa"], words: ["kilopascal", "kilopascals"] },
  { code: "MPa", symbols: ["MPa"], words: ["megapascal", "megapascals"] },
  { code: "GPa", symbols: ["GPa"], words: ["gigapascal", "gigapascals"] },
  { code: "bar", slotSymbols: ["bar"], slotWords: ["bars"] },
  { code: "atm", symbols: ["atm"] },
  { code: "[psi]", symbols: ["psi"], words: ["pounds per square inch"] },
  {
    code: "eV",
    symbols: ["eV"],
    words: ["electronvolt", "electronvolts", "electron volt", "electron volts"],
  },
  { code: "meV", symbols: ["meV"], words: ["millielectronvolt", "millielectronvolts"] },
  {
    code: "eV/atom",
    symbols: ["eV/atom"],
    words: ["electronvolts per atom", "electronvolt per atom", "electron volts per atom", "eV per atom"],
  },
  { code: "meV/atom", symbols: ["meV/atom"], words: ["millielectronvolts per atom", "meV per atom"] },
  { code: "J", slotSymbols: ["J"], words: ["joule", "joules"] },
  { code: "kJ", symbols: ["kJ"], words: ["kilojoule", "kilojoules"] },
  { code: "kW.h", symbols: ["kWh", "kW.h"], words: ["kilowatt hour", "kilowatt hours"] },
  { code: "W", slotSymbols: ["W"], words: ["watt", "watts"] },
  { code: "kW", symbols: ["kW"], words: ["kilowatt", "kilowatts"] },
  {
    code: "W/m2",
    symbols: ["W/m2", "W/m^2", "W/m²", "W m-2", "W m⁻²", "W.m-2"],
    words: [
      "watts per square metre",
      "watts per square meter",
      "watt per square metre",
      "watt per square meter",
      "W per square metre",
      "W per square meter",
    ],
  },
  { code: "g", slotSymbols: ["g"], words: ["gram", "grams", "gramme", "grammes"] },
  { code: "kg", symbols: ["kg"], words: ["kilogram", "kilograms", "kilogramme", "kilogrammes"] },
  { code: "mg", symbols: ["mg"], words: ["milligram", "milligrams"] },
  { code: "t", words: ["tonne", "tonnes", "metric ton", "metric tons"] },
  { code: "[lb_av]", symbols: ["lb", "lbs"], slotWords: ["pound", "pounds"] },
  {
    code: "g/cm3",
    symbols: ["g/cm3", "g/cm^3", "g/cm³", "g cm-3", "g/cc"],
    words: ["grams per cubic centimetre", "grams per cubic centimeter", "gram per cubic centimetre"],
  },
  {
    code: "kg/m3",
    symbols: ["kg/m3", "kg/m^3", "kg/m³", "kg m-3"],
    words: ["kilograms per cubic metre", "kilograms per cubic meter", "kilogram per cubic metre"],
  },
  { code: "s", slotSymbols: ["s", "sec"], slotWords: ["second", "seconds"] },
  { code: "min", slotSymbols: ["min"], slotWords: ["minute", "minutes"] },
  { code: "h", slotSymbols: ["h", "hr", "hrs"], slotWords: ["hour", "hours"] },
  { code: "d", slotWords: ["day", "days"] },
  { code: "Hz", symbols: ["Hz"], words: ["hertz"] },
  { code: "V", slotSymbols: ["V"], words: ["volt", "volts"] },
  {
    code: "[mu_B]",
    symbols: ["muB", "μB", "µB", "mu_B", "[mu_B]"],
    words: ["bohr magneton", "bohr magnetons"],
  },
  { code: "USD", symbols: ["USD", "US$", "$"], words: ["dollar", "dollars", "us dollar", "us dollars"] },
  { code: "EUR", symbols: ["EUR", "€"], words: ["euro", "euros"] },
  {
    code: "GBP",
    symbols: ["GBP", "£"],
    words: ["pound sterling", "pounds sterling", "british pound", "british pounds"],
  },
  { code: "JPY", symbols: ["JPY", "¥"], words: ["yen", "japanese yen"] },
  { code: "KRW", symbols: ["KRW", "₩"], words: ["korean won"] },
  { code: "CNY", symbols: ["CNY"], words: ["yuan", "renminbi"] },
  { code: "CHF", symbols: ["CHF"], words: ["swiss franc", "swiss francs"] },
];

/** Prefix of canonical unit tokens (no tokenizer output contains `:`). */
export const UNIT_TOKEN_PREFIX = "unit:";

/** The token a canonical unit code is matched by, on the surface and in requests. */
export function unitToken(code: string): string {
  return `${UNIT_TOKEN_PREFIX}${code}`;
}

const BY_SYMBOL = new Map<string, string>();
const BY_WORD = new Map<string, string>();
for (const unit of UNITS) {
  for (const symbol of [...(unit.symbols ?? []), ...(unit.slotSymbols ?? []), unit.code]) {
    if (!BY_SYMBOL.has(symbol)) BY_SYMBOL.set(symbol, unit.code);
  }
  for (const word of [...(unit.words ?? []), ...(unit.slotWords ?? [])]) {
    BY_WORD.set(word.toLowerCase(), unit.code);
  }
}

/** `m s-1` → `m/s`, `W m-2` → `W/m2`, `kg m**-3` → `kg/m3` (UCUM-style exponent notation). */
function exponentForm(text: string): string | undefined {
  const parts = text.split(/[\s.·]+/).filter((part) => part.length > 0);
  if (parts.length < 2) return undefined;
  const numerator: string[] = [];
  const denominator: string[] = [];
  for (const part of parts) {
    const match = /^([^\d\-⁻*^]+)(?:\*\*|\^)?(-|⁻)?([\d¹²³]*)$/.exec(part);
    if (match === null) return undefined;
    const power = (match[3] ?? "").replace("¹", "1").replace("²", "2").replace("³", "3");
    const term = `${match[1]}${power === "1" ? "" : power}`;
    (match[2] === undefined ? numerator : denominator).push(term);
  }
  if (numerator.length === 0) return undefined;
  return denominator.length === 0 ? numerator.join(".") : `${numerator.join(".")}/${denominator.join("/")}`;
}

/**
 * The canonical code of a declared or requested unit string (`degC` → `Cel`, "degrees Celsius" →
 * `Cel`, `m s-1` → `m/s`), or undefined when the vocabulary does not know it.
 */
export function canonicalUnit(unit: string): string | undefined {
  const text = unit.normalize("NFKC").trim();
  if (text.length === 0) return undefined;
  const direct = BY_SYMBOL.get(text) ?? BY_WORD.get(text.toLowerCase().replace(/[\s-]+/g, " "));
  if (direct !== undefined) return direct;
  const compact = text.replace(/\s*\/\s*/g, "/").replace(/\^/g, "");
  const viaCompact = BY_SYMBOL.get(compact);
  if (viaCompact !== undefined) return viaCompact;
  const exponent = exponentForm(text);
  return exponent === undefined ? undefined : BY_SYMBOL.get(exponent);
}

/** A unit written in free text: characters `start..end` of the query spell canonical `code`. */
export interface UnitMention {
  readonly start: number;
  readonly end: number;
  readonly code: string;
}

interface Pattern {
  readonly regex: RegExp;
  readonly code: string;
  readonly slot: boolean;
  readonly length: number;
  /**
   * Text every match contains: the symbol itself (case-sensitive patterns), or the first word in
   * lower case (case-insensitive ones, only when that word is ASCII). A text without it cannot
   * match, so the regex is never run (nor compiled) for it; see `findUnits`.
   */
  readonly needle: string | undefined;
  readonly folded: boolean;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const EDGE_BEFORE = "(?<![\\p{L}\\p{N}_])";
const EDGE_AFTER = "(?![\\p{L}\\p{N}_])";

/** Only code points below 128 (no letter Unicode case folding maps onto ASCII from outside it). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const wordPattern = (code: string, slot: boolean) => (word: string) => {
  const first = word.split(" ")[0]!.toLowerCase();
  return {
    regex: new RegExp(
      `${EDGE_BEFORE}${word.split(" ").map(escapeRegExp).join("[\\s-]+")}${EDGE_AFTER}`,
      "giu",
    ),
    code,
    slot,
    length: word.length,
    needle: isAscii(first) ? first : undefined,
    folded: true,
  };
};

const PATTERNS: readonly Pattern[] = UNITS.flatMap((unit) => [
  ...(unit.words ?? []).map(wordPattern(unit.code, false)),
  ...(unit.slotWords ?? []).map(wordPattern(unit.code, true)),
  ...(unit.symbols ?? []).map((symbol) => ({
    regex: new RegExp(`${EDGE_BEFORE}${escapeRegExp(symbol)}${EDGE_AFTER}`, "gu"),
    code: unit.code,
    slot: false,
    length: symbol.length,
    needle: symbol,
    folded: false,
  })),
  ...(unit.slotSymbols ?? []).map((symbol) => ({
    regex: new RegExp(`${EDGE_BEFORE}${escapeRegExp(symbol)}${EDGE_AFTER}`, "gu"),
    code: unit.code,
    slot: true,
    length: symbol.length,
    needle: symbol,
    folded: false,
  })),
]).sort((a, b) => b.length - a.length || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** A unit slot: the text before ends in "in", "as", "per", "of" or a number. */
const SLOT_BEFORE = /(?:(?<![\p{L}\p{N}])(?:in|as|per|of|into)\s+|\p{N}\s*)$/iu;

/**
 * The units written in `text`, in text order, without overlaps (longest spelling first). Symbols
 * that are also ordinary letters or words (`K`, `m`, `g`, `deg`) count only in a unit slot.
 *
 * A pattern whose needle the text lacks is skipped: it cannot match, so the result is the one
 * running every pattern gives (`findUnitsExhaustive`, kept for the differential test). Needles of
 * case-insensitive patterns are compared with the lower-cased text only when the text is ASCII:
 * Unicode case folding (`/iu`) can match non-ASCII letters that lower-casing does not map (`ſ`, `K`).
 */
export function findUnits(text: string): UnitMention[] {
  return scan(text, true);
}

/** Every spelling `findUnits` recognises (words, phrases and symbols), for tests. */
export function unitSpellings(): string[] {
  return UNITS.flatMap((unit) => [
    ...(unit.words ?? []),
    ...(unit.slotWords ?? []),
    ...(unit.symbols ?? []),
    ...(unit.slotSymbols ?? []),
  ]);
}

/** `findUnits` running every pattern's regex (the reference of the differential test). */
export function findUnitsExhaustive(text: string): UnitMention[] {
  return scan(text, false);
}

function scan(text: string, prefilter: boolean): UnitMention[] {
  const taken: UnitMention[] = [];
  const overlaps = (start: number, end: number): boolean =>
    taken.some((mention) => start < mention.end && mention.start < end);
  const ascii = prefilter && isAscii(text);
  const lower = ascii ? text.toLowerCase() : text;
  for (const pattern of PATTERNS) {
    if (prefilter && pattern.needle !== undefined) {
      if (!pattern.folded ? !text.includes(pattern.needle) : ascii && !lower.includes(pattern.needle))
        continue;
    }
    pattern.regex.lastIndex = 0;
    for (const match of text.matchAll(pattern.regex)) {
      const start = match.index;
      const end = start + match[0].length;
      if (overlaps(start, end)) continue;
      if (pattern.slot && !SLOT_BEFORE.test(text.slice(0, start))) continue;
      taken.push({ start, end, code: pattern.code });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
