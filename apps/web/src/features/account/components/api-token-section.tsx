import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { CopyField } from '../../../components/ui/copy-field';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser, useSignedInUser } from '../../../lib/session';
import { createApiToken, revokeApiToken } from '../api/account';
import { SettingsSection } from './settings-section';

/** The personal API token: made (and shown once), replaced or revoked. */
export function ApiTokenSection({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [confirming, setConfirming] = useState<'replace' | 'revoke' | null>(null);
  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: async () => {
      setConfirming(null);
      await refreshCurrentUser();
    },
  });
  const revoke = useMutation({
    mutationFn: revokeApiToken,
    onSuccess: async () => {
      setConfirming(null);
      create.reset();
      notify({ type: 'success', message: t('profile.tokenRevoked') });
      await refreshCurrentUser();
    },
  });
  // The privileged flag says who may hold a token; superusers may anyway.
  const allowed = user.isSuperuser || user.privilegedSettings.api_tokens === true;
  const hasToken = user.tokenCreationTs !== null;

  return (
    <SettingsSection topic="apiToken" testId="profile-api-token">
      <Stack gap="md">
        <Group gap="xs">
          <IconKey size={16} />
          <Text size="sm" data-testid="token-created">
            {hasToken
              ? t('profile.tokenCreated', { date: formatDate(user.tokenCreationTs, 'isoDateTime') })
              : t('profile.noToken')}
          </Text>
        </Group>
        {create.data && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
            <Stack gap="sm">
              <Text size="sm">{t('profile.tokenShownOnce')}</Text>
              <CopyField label={t('profile.apiToken')} value={create.data.token} testId="api-token" />
            </Stack>
          </Alert>
        )}
        {!allowed && !hasToken && (
          <Text size="sm" c="dimmed">
            {t('profile.tokenNotAllowed')}
          </Text>
        )}
        <Group gap="sm">
          {allowed && (
            <Button
              variant={hasToken ? 'default' : 'filled'}
              loading={create.isPending}
              disabled={locked}
              onClick={() => (hasToken ? setConfirming('replace') : create.mutate())}
              data-testid="token-create"
            >
              {hasToken ? t('profile.tokenReplace') : t('profile.tokenCreate')}
            </Button>
          )}
          {hasToken && (
            <Button
              variant="light"
              color="red"
              disabled={locked}
              onClick={() => setConfirming('revoke')}
              data-testid="token-revoke"
            >
              {t('profile.tokenRevoke')}
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmModal
        opened={confirming !== null}
        title={confirming === 'revoke' ? t('profile.tokenRevoke') : t('profile.tokenReplace')}
        message={t('profile.tokenConfirm')}
        confirmLabel={confirming === 'revoke' ? t('profile.tokenRevoke') : t('profile.tokenReplace')}
        danger
        loading={create.isPending || revoke.isPending}
        onConfirm={() => (confirming === 'revoke' ? revoke.mutate() : create.mutate())}
        onClose={() => setConfirming(null)}
      />
    </SettingsSection>
  );
}
