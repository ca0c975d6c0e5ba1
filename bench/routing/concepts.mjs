/**
 * The concept inventory of the high-ambiguity routing catalog: four data domains whose providers all
 * expose look-alike "get data" endpoints, distinguished only by their fields' semantic IDs, units and
 * qualifiers. Also the unsupported requests (nothing in any catalog built from this inventory answers
 * them), tagged `near` (they share vocabulary with a domain) or `far` (out of every domain).
 */

/** Per domain: endpoint names, descriptions, parameters and the concepts its endpoints draw from. */
export const DOMAINS = [
  {
    name: "weather",
    providers: 14,
    endpoints: ["get_data", "query", "observations"],
    descriptions: [
      "Get weather data for a location and time range.",
      "Query current conditions and observations from weather stations.",
      "Get data from the weather observation network for a location.",
    ],
    toolDescriptions: ["Weather data API.", "Weather observations and conditions service."],
    parameters: [["location", true], ["start"], ["end"]],
    context: "for Busan",
    concepts: [
      {
        key: "cf:air_temperature",
        phrase: "air temperature",
        field: "temperature",
        alt: "temp",
        units: ["K", "degC", "degF"],
        qualifiers: [{ height: "2m" }, undefined],
      },
      {
        key: "cf:dew_point_temperature",
        phrase: "dew point temperature",
        field: "dew_point",
        alt: "dewpt",
        units: ["K", "degC"],
        qualifiers: [undefined],
      },
      {
        key: "cf:relative_humidity",
        phrase: "relative humidity",
        field: "humidity",
        alt: "rh",
        units: ["%"],
        qualifiers: [undefined],
      },
      {
        key: "cf:wind_speed",
        phrase: "wind speed",
        field: "wind_speed",
        alt: "wspd",
        units: ["m/s", "km/h", "kn"],
        qualifiers: [{ height: "10m" }, { height: "100m" }],
      },
      {
        key: "cf:precipitation_amount",
        phrase: "precipitation",
        field: "precipitation",
        alt: "precip",
        units: ["mm"],
        qualifiers: [{ period: "1h" }, { period: "24h" }],
      },
      {
        key: "cf:air_pressure",
        phrase: "air pressure",
        field: "pressure",
        alt: "pres",
        units: ["hPa", "Pa"],
        qualifiers: [{ level: "sea" }, { level: "station" }],
      },
      {
        key: "cf:surface_downwelling_shortwave_flux",
        phrase: "solar radiation",
        field: "radiation",
        alt: "rad",
        units: ["W/m2"],
        qualifiers: [{ component: "global" }, { component: "diffuse" }],
      },
    ],
  },
  {
    name: "ocean",
    providers: 6,
    endpoints: ["get_data", "query", "observations"],
    descriptions: [
      "Get marine data for a location and time range.",
      "Query ocean observations from buoys and platforms.",
      "Get data from the marine observation network for a location.",
    ],
    toolDescriptions: ["Marine data API.", "Ocean observations service."],
    parameters: [["location", true], ["start"], ["end"]],
    context: "for Busan",
    concepts: [
      {
        key: "cf:sea_surface_temperature",
        phrase: "sea surface temperature",
        field: "sst",
        alt: "surface_temp",
        units: ["K", "degC"],
        qualifiers: [undefined],
      },
      {
        key: "cf:sea_surface_wave_significant_height",
        phrase: "significant wave height",
        field: "wave_height",
        alt: "hs",
        units: ["m"],
        qualifiers: [undefined],
      },
      {
        key: "cf:sea_water_speed",
        phrase: "ocean current speed",
        field: "current_speed",
        alt: "cspd",
        units: ["m/s", "kn"],
        qualifiers: [{ depth: "surface" }, { depth: "10m" }],
      },
      {
        key: "cf:sea_water_temperature",
        phrase: "water temperature",
        field: "water_temperature",
        alt: "wtemp",
        units: ["degC"],
        qualifiers: [{ depth: "10m" }, { depth: "50m" }],
      },
    ],
  },
  {
    name: "materials",
    providers: 10,
    endpoints: ["get_data", "query", "search"],
    descriptions: [
      "Get computed material properties for a structure or formula.",
      "Query the materials database by formula or material ID.",
      "Get data for materials matching a chemical formula.",
    ],
    toolDescriptions: ["Materials data API.", "Computational materials database."],
    parameters: [["formula", true], ["material_id"]],
    context: "for silicon",
    concepts: [
      {
        key: "mat:band_gap",
        phrase: "band gap",
        field: "band_gap",
        alt: "gap",
        units: ["eV"],
        qualifiers: [{ functional: "PBE" }, { functional: "HSE06" }],
      },
      {
        key: "mat:formation_energy_per_atom",
        phrase: "formation energy per atom",
        field: "formation_energy",
        alt: "e_form",
        units: ["eV/atom"],
        qualifiers: [undefined],
      },
      {
        key: "mat:energy_above_hull",
        phrase: "energy above hull",
        field: "e_above_hull",
        alt: "ehull",
        units: ["eV/atom", "meV/atom"],
        qualifiers: [undefined],
      },
      {
        key: "mat:density",
        phrase: "density",
        field: "density",
        alt: "rho",
        units: ["g/cm3", "kg/m3"],
        qualifiers: [undefined],
      },
      {
        key: "mat:bulk_modulus",
        phrase: "bulk modulus",
        field: "bulk_modulus",
        alt: "k_vrh",
        units: ["GPa"],
        qualifiers: [{ averaging: "VRH" }, { averaging: "Voigt" }],
      },
      {
        key: "mat:total_magnetization",
        phrase: "total magnetization",
        field: "magnetization",
        alt: "magmom",
        units: ["muB"],
        qualifiers: [undefined],
      },
    ],
  },
  {
    name: "finance",
    providers: 10,
    endpoints: ["get_data", "query", "quote"],
    descriptions: [
      "Get market data for a ticker and date range.",
      "Query end-of-day market data for listed securities.",
      "Get data for a stock ticker from the market data feed.",
    ],
    toolDescriptions: ["Market data API.", "Financial market data service."],
    parameters: [["ticker", true], ["date"]],
    context: "for ACME",
    concepts: [
      {
        key: "fin:close_price",
        phrase: "closing price",
        field: "close",
        alt: "close_px",
        units: ["USD", "EUR"],
        qualifiers: [{ adjustment: "split-adjusted" }, { adjustment: "unadjusted" }],
      },
      {
        key: "fin:trading_volume",
        phrase: "trading volume",
        field: "volume",
        alt: "vol",
        units: ["shares"],
        qualifiers: [undefined],
      },
      {
        key: "fin:market_capitalization",
        phrase: "market capitalization",
        field: "market_cap",
        alt: "mcap",
        units: ["USD", "EUR"],
        qualifiers: [undefined],
      },
      {
        key: "fin:dividend_yield",
        phrase: "dividend yield",
        field: "dividend_yield",
        alt: "dy",
        units: ["%"],
        qualifiers: [{ basis: "trailing" }, { basis: "forward" }],
      },
      {
        key: "fin:price_earnings_ratio",
        phrase: "price to earnings ratio",
        field: "pe_ratio",
        alt: "pe",
        units: [undefined],
        qualifiers: [undefined],
      },
    ],
  },
];

/** How a qualifier reads in a request (`{ height: "2m" }` → "at 2m height"). */
export const QUALIFIER_PHRASE = {
  height: (v) => `at ${v} height`,
  period: (v) => `over ${v}`,
  level: (v) => `at ${v} level`,
  component: (v) => `${v} component`,
  depth: (v) => `at ${v} depth`,
  functional: (v) => `computed with ${v}`,
  averaging: (v) => `${v} average`,
  adjustment: (v) => v,
  basis: (v) => v,
};

/** Requests nothing in the catalog answers; every method must return no route for them. */
export const UNSUPPORTED = [
  { tag: "near", request: { query: "wind direction in degrees at 10m height" } },
  { tag: "near", request: { query: "soil moisture at 10 cm depth" } },
  { tag: "near", request: { query: "lightning strike density over 24h" } },
  { tag: "near", request: { query: "sea surface salinity in PSU" } },
  { tag: "near", request: { query: "ocean chlorophyll concentration" } },
  { tag: "near", request: { query: "tide level at the harbour" } },
  { tag: "near", request: { query: "thermal conductivity in W/mK" } },
  { tag: "near", request: { query: "melting point of the alloy in K" } },
  { tag: "near", request: { query: "superconducting critical temperature in K" } },
  { tag: "near", request: { query: "crystal space group of the structure" } },
  { tag: "near", request: { query: "option implied volatility for ACME" } },
  { tag: "near", request: { query: "credit rating of the issuer" } },
  { tag: "near", request: { query: "bond yield to maturity" } },
  {
    tag: "near",
    request: { query: "sea water salinity", semanticIds: ["cf:sea_water_salinity"], units: ["PSU"] },
  },
  {
    tag: "near",
    request: { query: "thermal conductivity", semanticIds: ["mat:thermal_conductivity"], units: ["W/mK"] },
  },
  {
    tag: "near",
    request: { query: "implied volatility", semanticIds: ["fin:implied_volatility"], units: ["%"] },
  },
  { tag: "far", request: { query: "flight departures from Seoul airport" } },
  { tag: "far", request: { query: "football match results from yesterday" } },
  { tag: "far", request: { query: "population of Berlin" } },
  { tag: "far", request: { query: "hotel availability next weekend" } },
  { tag: "far", request: { query: "train timetable between Busan and Seoul" } },
  { tag: "far", request: { query: "translate this sentence into French" } },
  { tag: "far", request: { query: "recipe for kimchi stew" } },
  { tag: "far", request: { query: "GitHub repository star count" } },
];

/**
 * The seed split of the high-ambiguity catalog, fixed before any tuning: scorers are tuned on
 * TUNING_SEEDS only; the report (bench/routing.mjs, docs/benchmarks.md) uses REPORT_SEEDS only.
 */
export const TUNING_SEEDS = Object.freeze([1, 2, 3, 4, 5]);
export const REPORT_SEEDS = Object.freeze([101, 102, 103, 104, 105]);

/**
 * Near-domain concepts that no endpoint of any catalog built from DOMAINS declares (the "field" kind of
 * near-domain unsupported request). `split` assigns each to the tuning or the report seeds, so report
 * seeds ask for fields no tuning run has seen.
 */
export const UNDECLARED = [
  {
    domain: "weather",
    key: "cf:wind_from_direction",
    phrase: "wind direction",
    unit: "deg",
    split: "tuning",
  },
  { domain: "weather", key: "cf:visibility_in_air", phrase: "visibility", unit: "km", split: "report" },
  { domain: "weather", key: "cf:cloud_area_fraction", phrase: "cloud cover", unit: "%", split: "tuning" },
  {
    domain: "weather",
    key: "cf:wind_speed_of_gust",
    phrase: "wind gust speed",
    unit: "m/s",
    split: "report",
  },
  { domain: "weather", key: "cf:snowfall_amount", phrase: "snowfall amount", unit: "cm", split: "tuning" },
  { domain: "weather", key: "cf:ultraviolet_index", phrase: "UV index", unit: undefined, split: "report" },
  {
    domain: "weather",
    key: "cf:soil_moisture_content",
    phrase: "soil moisture",
    unit: "kg/m2",
    split: "tuning",
  },
  {
    domain: "weather",
    key: "cf:lightning_density",
    phrase: "lightning strike density",
    unit: undefined,
    split: "report",
  },
  {
    domain: "ocean",
    key: "cf:sea_water_salinity",
    phrase: "sea water salinity",
    unit: "PSU",
    split: "tuning",
  },
  {
    domain: "ocean",
    key: "cf:chlorophyll_concentration",
    phrase: "chlorophyll concentration",
    unit: "mg/m3",
    split: "report",
  },
  { domain: "ocean", key: "cf:sea_surface_wave_period", phrase: "wave period", unit: "s", split: "tuning" },
  { domain: "ocean", key: "cf:sea_surface_height", phrase: "tide level", unit: "m", split: "report" },
  { domain: "ocean", key: "cf:sea_water_ph", phrase: "sea water pH", unit: undefined, split: "tuning" },
  { domain: "ocean", key: "cf:dissolved_oxygen", phrase: "dissolved oxygen", unit: "mg/L", split: "report" },
  {
    domain: "materials",
    key: "mat:thermal_conductivity",
    phrase: "thermal conductivity",
    unit: "W/mK",
    split: "tuning",
  },
  { domain: "materials", key: "mat:melting_point", phrase: "melting point", unit: "K", split: "report" },
  { domain: "materials", key: "mat:shear_modulus", phrase: "shear modulus", unit: "GPa", split: "tuning" },
  { domain: "materials", key: "mat:space_group", phrase: "space group", unit: undefined, split: "report" },
  {
    domain: "materials",
    key: "mat:poisson_ratio",
    phrase: "Poisson ratio",
    unit: undefined,
    split: "tuning",
  },
  {
    domain: "materials",
    key: "mat:dielectric_constant",
    phrase: "dielectric constant",
    unit: undefined,
    split: "report",
  },
  { domain: "finance", key: "fin:open_price", phrase: "opening price", unit: "USD", split: "tuning" },
  {
    domain: "finance",
    key: "fin:implied_volatility",
    phrase: "implied volatility",
    unit: "%",
    split: "report",
  },
  {
    domain: "finance",
    key: "fin:earnings_per_share",
    phrase: "earnings per share",
    unit: "USD",
    split: "tuning",
  },
  {
    domain: "finance",
    key: "fin:yield_to_maturity",
    phrase: "bond yield to maturity",
    unit: "%",
    split: "report",
  },
  { domain: "finance", key: "fin:credit_rating", phrase: "credit rating", unit: undefined, split: "tuning" },
  { domain: "finance", key: "fin:beta", phrase: "market beta", unit: undefined, split: "report" },
];

/**
 * Units that no concept of DOMAINS lists for that concept (the "unit" kind draws from these and from
 * the concept's listed units that a seed's catalog happens not to declare).
 */
export const FOREIGN_UNITS = {
  "cf:air_temperature": ["degR"],
  "cf:dew_point_temperature": ["degF"],
  "cf:relative_humidity": ["g/kg"],
  "cf:wind_speed": ["mph"],
  "cf:precipitation_amount": ["cm"],
  "cf:air_pressure": ["inHg", "atm"],
  "cf:surface_downwelling_shortwave_flux": ["MJ/m2"],
  "cf:sea_surface_temperature": ["degF"],
  "cf:sea_surface_wave_significant_height": ["ft"],
  "cf:sea_water_speed": ["km/h"],
  "cf:sea_water_temperature": ["K", "degF"],
  "mat:band_gap": ["meV"],
  "mat:formation_energy_per_atom": ["kJ/mol"],
  "mat:energy_above_hull": ["kJ/mol"],
  "mat:density": ["lb/ft3"],
  "mat:bulk_modulus": ["MPa"],
  "mat:total_magnetization": ["emu/g"],
  "fin:close_price": ["JPY", "GBP"],
  "fin:trading_volume": ["USD"],
  "fin:market_capitalization": ["JPY", "GBP"],
  "fin:dividend_yield": ["bp"],
  "fin:price_earnings_ratio": [],
};
