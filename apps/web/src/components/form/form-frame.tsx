import { Button, Group, Stack } from '@mantine/core';
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
}: {
  onSubmit: () => void;
  testId?: string;
  children: ReactNode;
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
      <Stack gap="md">{children}</Stack>
      {after}
    </form>
  );
}

/** Cancel and submit, at the end of a form. */
export function FormActions({
  onCancel,
  submitLabel,
  loading,
  submitTestId,
  className,
}: {
  onCancel: () => void;
  submitLabel: string;
  loading: boolean;
  submitTestId?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm" className={className}>
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={loading} data-testid={submitTestId}>
        {submitLabel}
      </Button>
    </Group>
  );
}
