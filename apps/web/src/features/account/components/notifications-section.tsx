import { Button, Divider, Group, Stack, Switch, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError } from '../../../components/form';
import { notify } from '../../../lib/notifications';
import { setCurrentUser, useSignedInUser } from '../../../lib/session';
import { updateProfile } from '../api/account';
import { SettingsSection } from './settings-section';

const mailingKeys = ['alerts', 'incidents', 'reports', 'releaseNotes'] as const;
type MailingKey = (typeof mailingKeys)[number];

/** Which mail the user gets, whether the duty phone may call, and critical alert calls. */
export function NotificationsSection() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const initial = () => ({
    mailing: Object.fromEntries(mailingKeys.map((key) => [key, user.mailingSetting[key] ?? true])) as Record<
      MailingKey,
      boolean
    >,
    weekdays: user.telephoneNotificationsSettings.weekdays.enabled,
    weekends: user.telephoneNotificationsSettings.weekends.enabled,
    critan: user.critan,
  });
  const [form, setForm] = useState(initial);
  const save = useMutation({
    mutationFn: () =>
      updateProfile({
        mailingSetting: form.mailing,
        telephoneNotificationsSettings: { weekdays: { enabled: form.weekdays }, weekends: { enabled: form.weekends } },
        critan: form.critan,
      }),
    onSuccess: (answer) => {
      setCurrentUser(answer);
      notify({ type: 'success', message: t('profile.saved') });
    },
  });
  const saved = initial();
  const changed = JSON.stringify(saved) !== JSON.stringify(form);

  return (
    <SettingsSection
      title={t('profile.notifications')}
      description={t('profile.notificationsHint')}
      testId="profile-notifications"
    >
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t('profile.mailing')}
        </Text>
        {mailingKeys.map((key) => (
          <Switch
            key={key}
            label={t(`profile.mail.${key}`)}
            description={t(`profile.mail.${key}Hint`)}
            checked={form.mailing[key]}
            onChange={(event) => {
              const checked = event.currentTarget.checked;
              setForm((previous) => ({ ...previous, mailing: { ...previous.mailing, [key]: checked } }));
            }}
          />
        ))}
        <Divider my="xs" />
        <Text size="sm" fw={600}>
          {t('profile.telephone')}
        </Text>
        <Switch
          label={t('profile.weekdays')}
          checked={form.weekdays}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setForm((previous) => ({ ...previous, weekdays: checked }));
          }}
        />
        <Switch
          label={t('profile.weekends')}
          checked={form.weekends}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setForm((previous) => ({ ...previous, weekends: checked }));
          }}
        />
        <Switch
          label={t('profile.critan')}
          description={t('profile.critanHint')}
          checked={form.critan}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setForm((previous) => ({ ...previous, critan: checked }));
          }}
          data-testid="profile-critan"
        />
        <FormError error={save.error} />
        <Group justify="flex-end">
          <Button
            loading={save.isPending}
            disabled={!changed}
            onClick={() => save.mutate()}
            data-testid="notifications-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </SettingsSection>
  );
}
