import '@mantine/dates/styles.css';
import { DateInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { dateFormats } from './index';
import { firstDayOfWeek } from './zone';

/**
 * Calendars and date pickers in the interface language: month and day names from dayjs's locale,
 * and the week starting on Monday in Russian (Sunday in English, as English-speaking users expect).
 * Native `datetime-local` pickers are not used: their calendar follows the browser's language, not
 * the console's.
 */
export function VigilDatesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = i18n.language === 'ru' ? 'ru' : 'en';
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: firstDayOfWeek(language) }}>{children}</DatesProvider>
  );
}

/** The first day of the week as the pickers' calendar (dayjs) knows it for a language: Monday in Russian. */
export function localeWeekStart(language: string): number {
  return dayjs()
    .locale(language === 'ru' ? 'ru' : 'en')
    .startOf('week')
    .day();
}

/** `YYYY-MM-DDTHH:mm` (the value of a datetime-local field) → the picker's `YYYY-MM-DD HH:mm:ss`. */
export function toPickerValue(local: string): string | null {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(:\d\d)?/.exec(local);
  return match ? `${match[1]} ${match[2]}${match[3] ?? ':00'}` : null;
}

/** The picker's `YYYY-MM-DD HH:mm:ss` → `YYYY-MM-DDTHH:mm`; '' when cleared. */
export function fromPickerValue(value: string | null): string {
  const match = value ? /^(\d{4}-\d\d-\d\d) (\d\d:\d\d)/.exec(value) : null;
  return match ? `${match[1]}T${match[2]}` : '';
}

/**
 * How a date field writes its value, by interface language (both are formats of the console's
 * list): Russian `DD.MM.YYYY, HH:mm`, as Russian readers write dates; English the console's default
 * `YYYY-MM-DD HH:mm`, which no English reader takes for month-first or day-first.
 */
export function entryFormat(language: string): string {
  return language === 'ru' ? dateFormats.dateTime : dateFormats.isoDateTime;
}

const pad = (value: string | number) => String(value).padStart(2, '0');

/**
 * Reads a typed date and time in either of the console's entry formats, whatever the language:
 * `DD.MM.YYYY, HH:mm` (comma optional) or `YYYY-MM-DD HH:mm` (or `T`); seconds optional; no time
 * is midnight. Answers the picker's `YYYY-MM-DD HH:mm:ss`, or null for anything else — a US
 * `MM/DD/YYYY` included — and for a day or time that does not exist.
 */
export function parseDateTimeEntry(text: string): string | null {
  const value = text.trim();
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  const parts = dotted
    ? { year: dotted[3], month: dotted[2], day: dotted[1], hour: dotted[4], minute: dotted[5], second: dotted[6] }
    : iso
      ? { year: iso[1], month: iso[2], day: iso[3], hour: iso[4], minute: iso[5], second: iso[6] }
      : null;
  if (!parts) return null;
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  const [hour, minute, second] = [Number(parts.hour ?? 0), Number(parts.minute ?? 0), Number(parts.second ?? 0)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return `${parts.year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/**
 * What the field hands back for the picker's new value: a typed date and time as is; a day picked
 * in the calendar (`YYYY-MM-DD`) at the time the field already held (midnight for an empty field).
 */
export function pickedValue(next: string | null, previous: string | null): string {
  if (next === null) return '';
  if (/^\d{4}-\d\d-\d\d$/.test(next)) return `${next}T${previous?.slice(11, 16) ?? '00:00'}`;
  return fromPickerValue(next);
}

export interface DateTimeInputProps {
  label: ReactNode;
  /** Wall-clock time in the user's zone as `YYYY-MM-DDTHH:mm`, or '' for none (like a datetime-local field). */
  value: string;
  onChange: (value: string) => void;
  className?: string;
  size?: 'xs' | 'sm' | 'md';
  error?: ReactNode;
  'data-testid'?: string;
}

/**
 * A date-and-time field in the user's format (see entryFormat), typed or picked from a calendar that
 * follows the interface language (see VigilDatesProvider); its placeholder shows the format. Pages
 * take it through `date-time-field.tsx`, which loads the date library with the first date field.
 */
export function DateTimeInput({ value, onChange, ...props }: DateTimeInputProps) {
  const { t, i18n } = useTranslation();
  const current = toPickerValue(value);
  return (
    <VigilDatesProvider>
      <DateInput
        {...props}
        withTime
        value={current}
        onChange={(next) => onChange(pickedValue(next, current))}
        valueFormat={entryFormat(i18n.language)}
        dateParser={parseDateTimeEntry}
        placeholder={t('dates.entryPlaceholder')}
        clearable
        popoverProps={{ withinPortal: true }}
        // Russian day and month names are written in lower case; headings start with a capital (Пн, Ноябрь).
        styles={{ weekday: { textTransform: 'capitalize' }, calendarHeaderLevel: { textTransform: 'capitalize' } }}
      />
    </VigilDatesProvider>
  );
}
