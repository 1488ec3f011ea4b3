import '@mantine/dates/styles.css';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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

/** A date-and-time field with a calendar that follows the interface language (see VigilDatesProvider). */
export function DateTimeInput({ value, onChange, ...props }: DateTimeInputProps) {
  return (
    <DateTimePicker
      {...props}
      value={toPickerValue(value)}
      onChange={(next) => onChange(fromPickerValue(next))}
      valueFormat={dateFormats.dateTime}
      clearable
      popoverProps={{ withinPortal: true }}
      // Russian day and month names are written in lower case; headings start with a capital (Пн, Ноябрь).
      styles={{ weekday: { textTransform: 'capitalize' }, calendarHeaderLevel: { textTransform: 'capitalize' } }}
    />
  );
}
