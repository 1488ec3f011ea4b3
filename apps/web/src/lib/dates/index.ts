import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { getDateLanguage, getTimeZone } from './zone';

export * from './zone';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The console's date formats, in dayjs notation (hours are 24-hour, as analysts read logs). */
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

const dayjsLocale = () => (getDateLanguage() === 'ru' ? 'ru' : 'en');

/** One formatter per zone, kept: making an Intl formatter costs far more than using one. */
const partFormatters = new Map<string, Intl.DateTimeFormat>();

function zonedParts(date: Date, zone: string): Record<string, string> {
  let formatter = partFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormatters.set(zone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

/** The numeric formats, written from the zone's parts without dayjs (lists show thousands of dates). */
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

/** An instant the fast path can read exactly as dayjs would: a Date, epoch milliseconds or an ISO date-time. */
function instantOf(value: string | number | Date): Date | null {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) ? new Date(value) : null;
}

/** A date or timestamp in the user's zone, in one of the formats above; `n/a` when empty or invalid. */
export function formatDate(
  value: string | number | Date | null | undefined,
  format: DateFormatName = DEFAULT_DATE_FORMAT,
): string {
  if (value === null || value === undefined || value === '') return EMPTY_DATE;
  const numeric = numericFormats[format];
  const instant = numeric ? instantOf(value) : null;
  if (numeric && instant) {
    return Number.isNaN(instant.getTime()) ? EMPTY_DATE : numeric(zonedParts(instant, getTimeZone()));
  }
  const parsed = dayjs(value);
  if (!parsed.isValid()) return EMPTY_DATE;
  return parsed.tz(getTimeZone()).locale(dayjsLocale()).format(dateFormats[format]);
}

/** An instant as an ISO string, from a `datetime-local` value read in the user's zone. */
export function zonedInputToIso(value: string): string | null {
  if (value === '') return null;
  const parsed = dayjs.tz(value, getTimeZone());
  return parsed.isValid() ? parsed.toISOString() : null;
}

/** The `datetime-local` value (user's zone) of an ISO instant. */
export function isoToZonedInput(value: string | null | undefined): string {
  if (!value) return '';
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.tz(getTimeZone()).format('YYYY-MM-DDTHH:mm') : '';
}

/** The first day of the week as dayjs knows it for a language (checks Russian weeks start on Monday). */
export function localeWeekStart(language: string): number {
  return dayjs()
    .locale(language === 'ru' ? 'ru' : 'en')
    .startOf('week')
    .day();
}
