import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError, fieldError } from '../../../components/form';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser, useSignedInUser } from '../../../lib/session';
import { changePassword, ssoPasswordChangeUrl } from '../api/account';
import { SettingsSection } from './settings-section';

const empty = { oldPassword: '', newPassword: '', newPasswordRetry: '' };

/** Password change; for a company with single sign-on, the way to the provider's password page. */
export function PasswordSection({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [form, setForm] = useState(empty);
  const change = useMutation({
    mutationFn: () => changePassword(form),
    onSuccess: async () => {
      setForm(empty);
      notify({ type: 'success', message: t('profile.passwordChanged') });
      await refreshCurrentUser();
    },
  });
  const sso = useMutation({
    mutationFn: ssoPasswordChangeUrl,
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  const set = (field: keyof typeof empty) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setForm((previous) => ({ ...previous, [field]: value }));
  };

  return (
    <SettingsSection
      title={t('profile.password')}
      description={t('profile.passwordUpdated', { date: formatDate(user.tsPasswordUpdated, 'longDateTime') })}
      testId="profile-password"
    >
      <Stack gap="md">
        {user.ssoAuthorizeUrl && (
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('profile.ssoPasswordHint')}</Text>
              <Button
                size="xs"
                variant="light"
                rightSection={<IconExternalLink size={14} />}
                loading={sso.isPending}
                onClick={() => sso.mutate()}
                data-testid="sso-password-change"
              >
                {t('profile.ssoPasswordChange')}
              </Button>
            </Stack>
          </Alert>
        )}
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" maw={420}>
            {user.ssoAuthorizeUrl && (
              <Text size="sm" c="dimmed">
                {t('profile.localPasswordHint')}
              </Text>
            )}
            <PasswordInput
              label={t('profile.currentPassword')}
              value={form.oldPassword}
              onChange={set('oldPassword')}
              autoComplete="current-password"
              error={fieldError(change.error, 'oldPassword')}
              disabled={locked}
            />
            <PasswordInput
              label={t('profile.newPassword')}
              value={form.newPassword}
              onChange={set('newPassword')}
              autoComplete="new-password"
              error={fieldError(change.error, 'newPassword')}
              disabled={locked}
            />
            <PasswordInput
              label={t('profile.repeatPassword')}
              value={form.newPasswordRetry}
              onChange={set('newPasswordRetry')}
              autoComplete="new-password"
              error={fieldError(change.error, 'newPasswordRetry')}
              disabled={locked}
            />
            <FormError error={change.error} shownFields={['oldPassword', 'newPassword', 'newPasswordRetry']} />
            <Group>
              <Button
                type="submit"
                loading={change.isPending}
                disabled={locked || !form.oldPassword || !form.newPassword || !form.newPasswordRetry}
              >
                {t('profile.changePassword')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </SettingsSection>
  );
}
