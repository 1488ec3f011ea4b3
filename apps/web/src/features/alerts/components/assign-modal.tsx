import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAssignableUsers, userLabel } from '../api/hooks';

/** Picks a user to give alerts to. */
export function AssignModal({
  opened,
  onAssign,
  onClose,
}: {
  opened: boolean;
  onAssign: (userId: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { users } = useAssignableUsers();
  const [userId, setUserId] = useState<string | null>(null);
  return (
    <Modal opened={opened} onClose={onClose} title={t('alerts.assignModal.title')} size="sm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (userId) onAssign(Number(userId));
        }}
      >
        <Stack gap="md">
          <Select
            label={t('alerts.assignModal.user')}
            placeholder={t('alerts.assignModal.placeholder')}
            data={users.map((user) => ({
              value: String(user.id),
              label: user.fullName.trim() ? `${userLabel(user, user.id)} (${user.username})` : user.username,
            }))}
            value={userId}
            onChange={setUserId}
            searchable
            data-autofocus
            nothingFoundMessage={t('common.nothingFound')}
            data-testid="assign-user"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!userId}>
              {t('alerts.assignModal.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
