import { describe, expect, it } from "vitest";
import {
  canonicalUnit,
  findUnits,
  intentOf,
  needsOf,
  stem,
  synonymsOf,
  tokenizeQuery,
  unitToken,
  unitTokens,
} from "../../../runtime/retrieval/index.js";

describe("unit vocabulary (UCUM-style canonical codes)", () => {
  it.each([
    ["degC", "Cel"],
    ["°C", "Cel"],
    ["Cel", "Cel"],
    ["degrees Celsius", "Cel"],
    ["celsius", "Cel"],
    ["kelvin", "K"],
    ["K", "K"],
    ["degF", "[degF]"],
    ["Fahrenheit", "[degF]"],
    ["m s-1", "m/s"],
    ["m/s", "m/s"],
    ["meters per second", "m/s"],
    ["W m-2", "W/m2"],
    ["W/m^2", "W/m2"],
    ["electronvolts per atom", "eV/atom"],
    ["eV/atom", "eV/atom"],
    ["kg m-3", "kg/m3"],
    ["€", "EUR"],
    ["euros", "EUR"],
    ["EUR", "EUR"],
    ["mbar", "hPa"],
    ["percent", "%"],
  ])("%j → %s", (spelling, code) => {
    expect(canonicalUnit(spelling)).toBe(code);
  });

  it("knows nothing of an unknown unit (matched by its words only)", () => {
    expect(canonicalUnit("shares")).toBeUndefined();
    expect(canonicalUnit("")).toBeUndefined();
    expect(unitTokens("shares")).toEqual(["share"]);
  });

  it("gives a declared unit its words and its canonical token", () => {
    expect(unitTokens("degC")).toEqual(["degc", "deg", "c", unitToken("Cel")]);
  });

  it("finds units written in a query, single letters only in a unit slot", () => {
    expect(findUnits("air temperature in degrees Celsius").map((m) => m.code)).toEqual(["Cel"]);
    expect(findUnits("temperature in K at 2m height").map((m) => m.code)).toEqual(["K"]);
    expect(findUnits("wind speed in meters per second").map((m) => m.code)).toEqual(["m/s"]);
    expect(findUnits("price in €").map((m) => m.code)).toEqual(["EUR"]);
    // "K" outside a unit slot, "2m" (a qualifier value) and ordinary words are no units.
    expect(findUnits("K-pop ranking at 2m height")).toEqual([]);
    expect(findUnits("rainfall over the last 3 days").map((m) => m.code)).toEqual(["d"]);
    expect(findUnits("wind direction in degrees").map((m) => m.code)).toEqual(["deg"]);
  });

  it("replaces a unit written in a query by its canonical token", () => {
    expect(tokenizeQuery("air temperature in degrees Celsius")).toEqual([
      "air",
      "temperatur",
      unitToken("Cel"),
    ]);
    expect(tokenizeQuery("air temperature in degC")).toEqual(tokenizeQuery("air temperature in °C"));
  });
});

describe("stemming and word vocabularies", () => {
  it.each([
    ["closing", "close"],
    ["close", "close"],
    ["trading", "trade"],
    ["averaging", "averag"],
    ["average", "averag"],
    ["repositories", "repository"],
    ["repos", "repository"],
    ["assigned", "assign"],
    ["humidities", "humidity"],
    ["speed", "speed"],
    ["status", "status"],
    ["gas", "gas"],
    ["10m", "10m"],
  ])("stem(%s) = %s", (word, want) => {
    expect(stem(word)).toBe(want);
  });

  it("maps description-level words to the quantity they describe", () => {
    expect(synonymsOf(stem("warm"))).toContain(stem("temperature"));
    expect(synonymsOf(stem("cost"))).toContain(stem("price"));
    expect(synonymsOf(stem("heavy"))).toEqual([stem("weight"), stem("mass"), stem("density")]);
    expect(synonymsOf(stem("repository"))).toEqual([]);
  });
});

describe("intent from the request's verbs", () => {
  it.each([
    ["get a repository", "read"],
    ["star count of a repository", "read"],
    ["how many stars does a repository have", "read"],
    ["list deleted repositories", "read"],
    ["open issues of a repository", "read"],
    ["star a repository", "write"],
    ["please create an issue comment", "write"],
    ["how do I create a repository", "write"],
    ["merge a pull request", "write"],
    ["delete a repository", "destructive"],
    ["I want to remove a collaborator", "destructive"],
  ])("%j → %s", (query, intent) => {
    expect(intentOf(query)).toBe(intent);
  });
});

describe("needs of a request", () => {
  it("splits at 'and', drops filler words, marks argument values", () => {
    const needs = needsOf("get the latest air temperature in K and wind speed for Busan");
    expect(needs.map((n) => n.text)).toEqual(["get the latest air temperature in K", "wind speed for Busan"]);
    expect(needs[0]!.concepts.map((c) => c.text)).toEqual(["air", "temperature"]);
    expect(needs[0]!.units).toEqual([{ text: "K", code: "K" }]);
    expect(needs[1]!.concepts.map((c) => [c.text, c.value])).toEqual([
      ["wind", false],
      ["speed", false],
      ["Busan", true],
    ]);
  });

  it("treats proper nouns and numbers as possible values", () => {
    const [need] = needsOf("band gap computed with PBE");
    expect(need!.concepts.map((c) => [c.text, c.value])).toEqual([
      ["band", false],
      ["gap", false],
      ["PBE", true],
    ]);
  });
});

describe("needs of a request: frame words, stated quantities, participles", () => {
  it("drops frame words (place, time, degree, light verbs, measuring nouns) but keeps media and places", () => {
    const words = (query: string) => needsOf(query).flatMap((n) => n.concepts.map((c) => c.text));
    expect(words("how warm it is outside")).toEqual(["warm"]);
    expect(words("how cold it gets outdoors at night")).toEqual(["cold"]);
    expect(words("barometric reading")).toEqual(["barometric"]);
    expect(words("how sticky the weather feels today")).toEqual(["sticky", "weather"]);
    expect(words("how warm the ground is")).toEqual(["warm", "ground"]);
    expect(words("indoor temperature inside")).toEqual(["indoor", "temperature", "inside"]);
    expect(words("soil moisture near the station")).toEqual(["soil", "moisture", "station"]);
    const [above] = needsOf("how warm it is two metres above the ground");
    expect(above!.concepts.map((c) => [c.text, c.value])).toEqual([
      ["warm", false],
      ["ground", true],
      ["two metres", false],
    ]);
  });

  it("reads a number with a simple unit as one quantity token, and 'in <unit>' as a requested unit", () => {
    const [up] = needsOf("wind speed ten metres above the ground");
    expect(up!.units).toEqual([]);
    expect(up!.concepts.find((c) => c.text === "ten metres")).toEqual({
      text: "ten metres",
      tokens: ["10m"],
      value: false,
    });
    const [spaced] = needsOf("wind speed at 10 m height");
    expect(spaced!.concepts.map((c) => c.tokens[0])).toContain("10m");
    expect(needsOf("wind speed in metres")[0]!.units).toEqual([{ text: "metres", code: "m" }]);
    // A rate with a number still names the unit wanted.
    expect(needsOf("wind over 10 m/s")[0]!.units).toEqual([{ text: "m/s", code: "m/s" }]);
  });

  it("marks past participles of write and destructive verbs, not -ing forms that name a thing", () => {
    const flag = (query: string) => needsOf(query)[0]!.concepts.map((c) => [c.text, c.participle === true]);
    expect(flag("list uploaded files")).toEqual([
      ["uploaded", true],
      ["files", false],
    ]);
    expect(flag("deleted issues")).toEqual([
      ["deleted", true],
      ["issues", false],
    ]);
    expect(flag("opening price")).toEqual([
      ["opening", false],
      ["price", false],
    ]);
  });

  it("maps general-English words to the quantity they describe (WordNet-sourced list)", () => {
    expect(synonymsOf(stem("damp"))).toEqual([stem("humidity")]);
    expect(synonymsOf(stem("barometer"))).toEqual([stem("pressure")]);
    expect(synonymsOf(stem("swells"))).toEqual([stem("wave")]);
    expect(synonymsOf(stem("magnetised"))).toEqual([stem("magnetization")]);
    // A hyponym that is a quantity of its own is not folded into its hypernym.
    expect(synonymsOf(stem("snowfall"))).toEqual([]);
    expect(synonymsOf(stem("gust"))).toEqual([]);
  });
});
