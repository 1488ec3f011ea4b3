import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { getDateLanguage, getTimeZone } from './zone';

export * from './zone';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Date formats of spec §9, in dayjs notation (hours are 24-hour, as analysts read logs). */
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

/** A date or timestamp in the user's zone, in one of the formats of spec §9; `n/a` when empty or invalid. */
export function formatDate(
  value: string | number | Date | null | undefined,
  format: DateFormatName = DEFAULT_DATE_FORMAT,
): string {
  if (value === null || value === undefined || value === '') return EMPTY_DATE;
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

/** The first day of the week as dayjs knows it for a language (checks the locale data agrees with spec §9). */
export function localeWeekStart(language: string): number {
  return dayjs()
    .locale(language === 'ru' ? 'ru' : 'en')
    .startOf('week')
    .day();
}
