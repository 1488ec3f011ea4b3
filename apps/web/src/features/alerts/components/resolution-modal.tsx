import { Button, Kbd, Modal, Stack, Text } from '@mantine/core';
import type { AlertResolution } from '@vigil/contract';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { resolutionForKey, resolutionKeys } from '../lib/shortcuts';

/**
 * Asks how alerts were resolved before resolving or closing them: one click, or one key (a digit
 * or the first letter of the answer).
 */
export function ResolutionModal({
  status,
  count,
  onPick,
  onClose,
}: {
  /** Which status is being set; null keeps the modal closed. */
  status: 'resolved' | 'closed' | null;
  count: number;
  onPick: (resolution: AlertResolution) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const opened = status !== null;

  useEffect(() => {
    if (!opened) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const resolution = resolutionForKey(event.key);
      if (!resolution) return;
      event.preventDefault();
      event.stopPropagation();
      onPick(resolution);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [opened, onPick]);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={status === 'resolved' ? t('alerts.resolution.resolveTitle') : t('alerts.resolution.closeTitle')}
      size="sm"
      data-testid="resolution-modal"
    >
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('alerts.resolution.count', { count })} {t('alerts.resolution.hint')}
        </Text>
        {resolutionKeys.map(({ resolution, keys }, index) => (
          <Button
            key={resolution}
            variant={index === 0 ? 'filled' : 'default'}
            justify="space-between"
            fullWidth
            rightSection={<Kbd size="xs">{keys[0]}</Kbd>}
            onClick={() => onPick(resolution)}
            data-testid={`resolution-${resolution}`}
          >
            {t(`triage.resolution.${resolution}`)}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}
