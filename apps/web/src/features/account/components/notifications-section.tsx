import { Divider, Stack, Switch, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { FormError, SaveButton, useFormValues } from '../../../components/form';
import { notify } from '../../../lib/notifications';
import { setCurrentUser, useSignedInUser } from '../../../lib/session';
import { updateProfile } from '../api/account';
import { SettingsSection } from './settings-section';

const mailingKeys = ['alerts', 'incidents', 'reports', 'releaseNotes'] as const;
type MailingKey = (typeof mailingKeys)[number];
const telephoneKeys = ['weekdays', 'weekends'] as const;

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
  const { values: form, setValues: setForm, checked } = useFormValues(initial);
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
    <SettingsSection topic="notifications" testId="profile-notifications">
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
              const on = event.currentTarget.checked;
              setForm((previous) => ({ ...previous, mailing: { ...previous.mailing, [key]: on } }));
            }}
          />
        ))}
        <Divider my="xs" />
        <Text size="sm" fw={600}>
          {t('profile.telephone')}
        </Text>
        {telephoneKeys.map((key) => (
          <Switch key={key} label={t(`profile.${key}`)} checked={form[key]} onChange={checked(key)} />
        ))}
        <Switch
          label={t('profile.critan')}
          description={t('profile.critanHint')}
          checked={form.critan}
          onChange={checked('critan')}
          data-testid="profile-critan"
        />
        <FormError error={save.error} />
        <SaveButton
          changed={changed}
          saving={save.isPending}
          onSave={() => save.mutate()}
          testId="notifications-save"
        />
      </Stack>
    </SettingsSection>
  );
}
