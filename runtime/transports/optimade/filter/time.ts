/**
 * RFC 3339 section 5.6 `date-time` parsing for OPTIMADE timestamp comparisons ("Type handling and
 * conversions in comparisons": a string token compared with a timestamp property is a timestamp).
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Milliseconds since the Unix epoch (fractions kept) for an RFC 3339 date-time, or `undefined`
 * when the string is not one. A leap second (`:60`) counts as the following second.
 */
export function parseRfc3339(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, zh, zm] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    const offsetHours = Number(zh);
    const offsetMins = Number(zm);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  const utc = new Date(base);
  utc.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  const fractionMs = fraction === undefined ? 0 : Number(fraction) * 1000;
  return utc.getTime() + fractionMs - offsetMinutes * 60_000;
}
