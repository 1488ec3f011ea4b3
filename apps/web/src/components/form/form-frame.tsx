import { Button, Group, Stack, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';

/**
 * A form whose submit runs `onSubmit` (the page stays; the browser does not validate, the server's
 * answer is shown beside each field), its fields stacked.
 */
export function FormFrame({
  onSubmit,
  testId,
  children,
  after,
  gap = 'md',
  maw,
}: {
  onSubmit: () => void;
  testId?: string;
  children: ReactNode;
  /** Between the fields. */
  gap?: MantineSpacing;
  /** The fields' greatest width. */
  maw?: number;
  /** Outside the stack (dialogs the form opens). */
  after?: ReactNode;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
      data-testid={testId}
    >
      <Stack gap={gap} maw={maw}>
        {children}
      </Stack>
      {after}
    </form>
  );
}

/**
 * Submit and, where the form can be left, cancel. At the end of a dialog's form they sit on the right,
 * cancel first; `inline` (a form within a page) puts them on the left, submit first.
 */
export function FormActions({
  onCancel,
  submitLabel,
  loading,
  disabled,
  color,
  inline = false,
  submitTestId,
  className,
}: {
  onCancel?: () => void;
  submitLabel: string;
  loading: boolean;
  disabled?: boolean;
  color?: string;
  inline?: boolean;
  submitTestId?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const cancel = onCancel && (
    <Button variant="default" onClick={onCancel}>
      {t('common.cancel')}
    </Button>
  );
  return (
    <Group justify={inline ? undefined : 'flex-end'} gap="sm" className={className}>
      {!inline && cancel}
      <Button type="submit" color={color} loading={loading} disabled={disabled} data-testid={submitTestId}>
        {submitLabel}
      </Button>
      {inline && cancel}
    </Group>
  );
}
