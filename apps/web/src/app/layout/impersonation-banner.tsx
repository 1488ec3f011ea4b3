import { endpoints } from '@vigil/contract/client';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { call } from '../../lib/http';
import { displayName, useSignedInUser } from '../../lib/session';

/** While an administrator acts as another user: who is who, and the way back. */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [leaving, setLeaving] = useState(false);
  if (!user.impersonator) return null;
  const stop = async () => {
    setLeaving(true);
    try {
      await call(endpoints.auth.endImpersonation, {});
      window.location.assign('/');
    } catch {
      setLeaving(false);
    }
  };
  return (
    <Alert color="orange" variant="light" radius={0} icon={<IconUserShield size={18} />} data-testid="impersonation">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {t('impersonation.actingAs', { user: displayName(user), admin: user.impersonator.username })}
        </Text>
        <Button size="xs" variant="light" color="orange" loading={leaving} onClick={() => void stop()}>
          {t('impersonation.stop')}
        </Button>
      </Group>
    </Alert>
  );
}
