import { Stack, Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PrivilegedFlag } from '@vigil/contract';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { SaveButton } from '../../../components/form';
import { notify } from '../../../lib/notifications';
import { changePrivilegedSettings, privilegedFlags, userKeys, type User } from '../api/users';

/** Capabilities granted by name on top of a user's roles, each with what it allows. */
export function PrivilegedSettings({ user, editable }: { user: User; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const initial = () =>
    Object.fromEntries(privilegedFlags.map((flag) => [flag, user.privilegedSettings[flag] === true])) as Record<
      PrivilegedFlag,
      boolean
    >;
  const [flags, setFlags] = useState(initial);
  const save = useMutation({
    mutationFn: () => changePrivilegedSettings(user.id, flags),
    onSuccess: async () => {
      notify({ type: 'success', message: t('users.privileged.saved') });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const changed = JSON.stringify(flags) !== JSON.stringify(initial());
  return (
    <Stack gap="sm" data-testid="privileged-settings">
      {privilegedFlags.map((flag) => (
        <Switch
          key={flag}
          label={t(`users.privileged.${flag}`)}
          description={t(`users.privileged.${flag}Hint`)}
          checked={flags[flag]}
          disabled={!editable}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setFlags((previous) => ({ ...previous, [flag]: checked }));
          }}
          data-testid={`privileged-${flag}`}
        />
      ))}
      {editable && (
        <SaveButton
          size="sm"
          changed={changed}
          saving={save.isPending}
          onSave={() => save.mutate()}
          testId="privileged-save"
        />
      )}
    </Stack>
  );
}
