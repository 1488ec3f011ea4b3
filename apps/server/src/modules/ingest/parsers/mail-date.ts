/*
 * The Date header, read as a lenient RFC 5322 reader reads it: `[day-of-week,] day month year
 * hour:minute[:second] [zone]`, with comments and folding, obsolete two- and three-digit years and
 * zone names, and whatever follows the date-time (`+0000-62495-238`, `(UTC)`) left aside.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Obsolete zone names (RFC 5322 4.3); military letters and unknown names mean "no zone" (UTC). */
const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  edt: -4 * 60,
  est: -5 * 60,
  cdt: -5 * 60,
  cst: -6 * 60,
  mdt: -6 * 60,
  mst: -7 * 60,
  pdt: -7 * 60,
  pst: -8 * 60,
};

const DATE_TIME =
  /^(?:[a-z]+\s*,?\s*)?(\d{1,2})\s*[-\s]\s*([a-z]{3})[a-z]*\.?\s*[-\s]\s*(\d{2,})\s+(\d{1,2})\s*:\s*(\d{1,2})(?:\s*:\s*(\d{1,2})(?:\.\d+)?)?(?:\s*([+-])(\d{2}):?(\d{2})|\s*([a-z]{1,5})\b)?/i;

/** Removes comments (nested) and collapses white space. */
function withoutComments(value: string): string {
  let out = '';
  let depth = 0;
  for (const c of value) {
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out.replace(/\s+/g, ' ').trim();
}

function fullYear(digits: string): number {
  const year = Number(digits);
  if (digits.length === 2) return year < 50 ? 2000 + year : 1900 + year;
  if (digits.length === 3) return 1900 + year;
  return year;
}

/**
 * The instant a Date header names, in milliseconds since the epoch, or NaN when it names none. Other
 * forms some mailers write (ISO 8601, `Tue Mar 12 15:01:50 2024`) are read by the platform's parser.
 */
export function parseMailDate(header: string): number {
  const value = withoutComments(header);
  const m = DATE_TIME.exec(value);
  if (m === null) return Date.parse(value);
  const [, day, monthName, year, hour, minute, second, sign, zoneHours, zoneMinutes, zoneName] = m;
  const month = MONTHS.indexOf(monthName!.toLowerCase());
  const d = Number(day);
  const h = Number(hour);
  const min = Number(minute);
  const rawSecond = second === undefined ? 0 : Number(second);
  if (month < 0 || d < 1 || d > 31 || h > 23 || min > 59 || rawSecond > 60) return NaN;
  // A leap second is read as the second before it.
  const s = Math.min(rawSecond, 59);
  let offset = 0;
  if (sign !== undefined) {
    const zh = Number(zoneHours);
    const zm = Number(zoneMinutes);
    if (zm > 59) return NaN;
    offset = (sign === '-' ? -1 : 1) * (zh * 60 + zm);
  } else if (zoneName !== undefined) {
    offset = ZONES[zoneName.toLowerCase()] ?? 0;
  }
  const date = new Date(0);
  date.setUTCFullYear(fullYear(year!), month, d);
  date.setUTCHours(h, min, s, 0);
  // A day the month does not have (31 Feb) is not a date.
  if (date.getUTCDate() !== d) return NaN;
  return date.getTime() - offset * 60_000;
}
