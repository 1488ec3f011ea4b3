import { Group, Kbd, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { keyLabel, shortcuts } from '../lib/shortcuts';

const groups = ['move', 'triage', 'other'] as const;

/** The list of the queue's keyboard shortcuts (`?`). */
export function ShortcutHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('alerts.help.title')} size="lg" data-testid="shortcut-help">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('alerts.help.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {groups.map((group) => (
            <Stack key={group} gap={6}>
              <Title order={4} size="h6">
                {t(`alerts.help.groups.${group}`)}
              </Title>
              {shortcuts
                .filter((shortcut) => shortcut.group === group)
                .map((shortcut) => (
                  <Group key={shortcut.action} justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm">{t(`alerts.help.actions.${shortcut.action}`)}</Text>
                    <Group gap={4} wrap="nowrap">
                      {shortcut.keys.map((key, index) => (
                        <Fragment key={key}>
                          {index > 0 && (
                            <Text size="xs" c="dimmed">
                              {t('alerts.help.or')}
                            </Text>
                          )}
                          <Kbd size="xs">{keyLabel(key)}</Kbd>
                        </Fragment>
                      ))}
                    </Group>
                  </Group>
                ))}
            </Stack>
          ))}
        </SimpleGrid>
      </Stack>
    </Modal>
  );
}
