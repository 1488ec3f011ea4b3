import { getDateLanguage, getTimeZone } from './zone';
import { zonedParts, zonedToInstant } from './zoned';

export * from './zone';
export * from './zoned';

/** The console's date formats, in dayjs notation (the date pickers' own), hours 24-hour as analysts read logs. */
export const dateFormats = {
  date: 'DD.MM.YYYY',
  time: 'HH:mm',
  timeSeconds: 'HH:mm:ss',
  year: 'YYYY',
  dateTime: 'DD.MM.YYYY, HH:mm',
  isoDateTime: 'YYYY-MM-DD HH:mm',
  isoDateTimeSeconds: 'YYYY-MM-DD HH:mm:ss',
  isoDate: 'YYYY-MM-DD',
  longDate: 'D MMMM YYYY',
  longDateTime: 'D MMMM YYYY, HH:mm',
} as const;
export type DateFormatName = keyof typeof dateFormats;

/** The default format: yyyy-MM-dd HH:mm. */
export const DEFAULT_DATE_FORMAT: DateFormatName = 'isoDateTime';
/** What an empty date shows. */
export const EMPTY_DATE = 'n/a';

/** Each format, written from the zone's clock (lists show thousands of dates). */
const numericFormats: Partial<Record<DateFormatName, (p: Record<string, string>) => string>> = {
  date: (p) => `${p.day}.${p.month}.${p.year}`,
  time: (p) => `${p.hour}:${p.minute}`,
  timeSeconds: (p) => `${p.hour}:${p.minute}:${p.second}`,
  year: (p) => `${p.year}`,
  dateTime: (p) => `${p.day}.${p.month}.${p.year}, ${p.hour}:${p.minute}`,
  isoDateTime: (p) => `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`,
  isoDateTimeSeconds: (p) => `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`,
  isoDate: (p) => `${p.year}-${p.month}-${p.day}`,
};

/** Month names as a date says them ("5 March 2026", Russian "5 марта 2026"), one formatter per language and zone. */
const longFormatters = new Map<string, Intl.DateTimeFormat>();

function longDate(instant: Date, zone: string): string {
  const language = getDateLanguage() === 'ru' ? 'ru' : 'en-GB';
  const key = `${language} ${zone}`;
  let formatter = longFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
    longFormatters.set(key, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) parts[part.type] = part.value;
  return `${parts.day} ${parts.month} ${parts.year}`;
}

/**
 * The instant a value names: a Date, epoch milliseconds, an ISO date-time with its offset, or a date
 * or date-time without one, read in the user's zone.
 */
function instantOf(value: string | number | Date): Date | null {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return new Date(value);
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (!local) return null;
  const [year, month, day, hour, minute, second] = local.slice(1).map((part) => Number(part ?? 0));
  const clock = {
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    second: second!,
    millisecond: 0,
  };
  const check = new Date(Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second));
  const valid =
    check.getUTCMonth() === clock.month - 1 && check.getUTCDate() === clock.day && check.getUTCHours() === clock.hour;
  return valid ? zonedToInstant(clock, getTimeZone()) : null;
}

/** A date or timestamp in the user's zone, in one of the formats above; `n/a` when empty or invalid. */
export function formatDate(
  value: string | number | Date | null | undefined,
  format: DateFormatName = DEFAULT_DATE_FORMAT,
): string {
  if (value === null || value === undefined || value === '') return EMPTY_DATE;
  const instant = instantOf(value);
  if (!instant || Number.isNaN(instant.getTime())) return EMPTY_DATE;
  const numeric = numericFormats[format];
  if (numeric) return numeric(zonedParts(instant, getTimeZone()));
  const day = longDate(instant, getTimeZone());
  return format === 'longDateTime' ? `${day}, ${numericFormats.time!(zonedParts(instant, getTimeZone()))}` : day;
}

/** An instant as an ISO string, from a `datetime-local` value read in the user's zone. */
export function zonedInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const instant = instantOf(value.replace('T', ' '));
  return instant ? instant.toISOString() : null;
}

/** The `datetime-local` value (user's zone) of an ISO instant. */
export function isoToZonedInput(value: string | null | undefined): string {
  if (!value) return '';
  const instant = instantOf(value);
  if (!instant || Number.isNaN(instant.getTime())) return '';
  const p = zonedParts(instant, getTimeZone());
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
