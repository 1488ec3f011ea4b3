import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError, useFormValues } from '../../../components/form';
import { Note } from '../../../components/ui/note';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser, useSignedInUser } from '../../../lib/session';
import { changePassword, ssoPasswordChangeUrl } from '../api/account';
import { SettingsSection } from './settings-section';

const empty = { oldPassword: '', newPassword: '', newPasswordRetry: '' };

/** The three fields of a password change, in order. */
const passwordFields = [
  { field: 'oldPassword', label: 'profile.currentPassword', autoComplete: 'current-password' },
  { field: 'newPassword', label: 'profile.newPassword', autoComplete: 'new-password' },
  { field: 'newPasswordRetry', label: 'profile.repeatPassword', autoComplete: 'new-password' },
] as const;

/** Password change; for a company with single sign-on, the way to the provider's password page. */
export function PasswordSection({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const { values: form, setValues: setForm, text } = useFormValues(empty);
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

  return (
    <SettingsSection
      topic="password"
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
        <FormFrame onSubmit={() => change.mutate()} gap="sm" maw={420}>
          {user.ssoAuthorizeUrl && <Note>{t('profile.localPasswordHint')}</Note>}
          {passwordFields.map(({ field, label, autoComplete }) => (
            <PasswordInput
              key={field}
              label={t(label)}
              value={form[field]}
              onChange={text(field)}
              autoComplete={autoComplete}
              error={fieldError(change.error, field)}
              disabled={locked}
            />
          ))}
          <FormError error={change.error} shownFields={passwordFields.map(({ field }) => field)} />
          <FormActions
            inline
            submitLabel={t('profile.changePassword')}
            loading={change.isPending}
            disabled={locked || !form.oldPassword || !form.newPassword || !form.newPasswordRetry}
          />
        </FormFrame>
      </Stack>
    </SettingsSection>
  );
}
