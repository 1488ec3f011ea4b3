import { TextInput } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../i18n';
import type { DateTimeInputProps } from './date-time-input';

const LoadedDateTimeInput = lazy(() =>
  import('./date-time-input').then((module) => ({ default: module.DateTimeInput })),
);

/**
 * The console's date-and-time field. The date library and its calendar arrive with the first date
 * field a page shows, not with the console's first screen; until then the field is drawn in place,
 * with its label and format, and cannot be typed in.
 */
export function DateTimeInput(props: DateTimeInputProps) {
  const { t } = useTranslation();
  const waiting = (
    <TextInput
      label={props.label}
      className={props.className}
      size={props.size}
      placeholder={t('dates.entryPlaceholder')}
      readOnly
      disabled
    />
  );
  return (
    <Suspense fallback={waiting}>
      <LoadedDateTimeInput {...props} />
    </Suspense>
  );
}
