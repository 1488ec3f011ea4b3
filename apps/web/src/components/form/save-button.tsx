import { Button, Group, type MantineSize } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';

/** Saves what a form changed: at the form's end, enabled once something differs from what is saved. */
export function SaveButton({
  changed,
  saving,
  onSave,
  testId,
  size,
}: {
  changed: boolean;
  saving: boolean;
  onSave: () => void;
  testId: string;
  size?: MantineSize;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button size={size} loading={saving} disabled={!changed} onClick={onSave} data-testid={testId}>
        {t('common.save')}
      </Button>
    </Group>
  );
}
