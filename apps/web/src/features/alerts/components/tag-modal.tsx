import { Button, Group, Modal, Stack, TagsInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { cleanTags } from '../lib/bulk';

/** Adds tags to alerts or removes them. */
export function TagModal({
  opened,
  onApply,
  onClose,
}: {
  opened: boolean;
  onApply: (kind: 'addTags' | 'removeTags', tags: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [tags, setTags] = useState<string[]>([]);
  const cleaned = cleanTags(tags);
  const apply = (kind: 'addTags' | 'removeTags') => {
    if (cleaned.length === 0) return;
    onApply(kind, cleaned);
    setTags([]);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('alerts.tagModal.title')} size="sm">
      <Stack gap="md">
        <TagsInput
          label={t('alerts.tagModal.label')}
          placeholder={t('alerts.tagModal.placeholder')}
          value={tags}
          onChange={setTags}
          maxTags={50}
          clearable
          data-autofocus
          data-testid="tag-input"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" disabled={cleaned.length === 0} onClick={() => apply('removeTags')}>
            {t('alerts.tagModal.remove')}
          </Button>
          <Button disabled={cleaned.length === 0} onClick={() => apply('addTags')} data-testid="tag-add">
            {t('alerts.tagModal.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
