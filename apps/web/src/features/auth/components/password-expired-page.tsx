import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session';
import { changePassword, continueSignIn } from '../api/auth';
import {
  AnotherAccountButton,
  AuthForm,
  NewPasswordFields,
  PasswordField,
  useAuthSubmit,
  useNewPassword,
} from './auth-form';
import { Button, FormAlert } from './controls';

/** The password has expired (or is the first, generated one): choose a new one to go on. */
export function PasswordExpiredPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [password, setPassword] = useState('');
  const { loading, formError, fieldErrors, submit } = useAuthSubmit();
  const username = user?.username ?? '';
  const passwordNew = useNewPassword(username, password);

  function handleSubmit() {
    void submit({
      check: () => {
        if (password === '') return { fields: { oldPassword: [t('auth.passwordExpired.currentRequired')] } };
        if (!passwordNew.rulesMet) return { form: t('auth.passwordExpired.rulesNotMet') };
        return null;
      },
      send: async () => {
        // password, passwordNew and passwordNewRepeat go as old_password, new_password, new_password_retry.
        await changePassword({
          oldPassword: password,
          newPassword: passwordNew.value,
          newPasswordRetry: passwordNew.repeat,
        });
        await continueSignIn();
      },
      logLabel: 'Password change refused:',
      failed: t('auth.passwordExpired.failed'),
    });
  }

  return (
    <AuthForm step="passwordExpired" user={username} onSubmit={handleSubmit}>
      {formError && <FormAlert testId="password-error">{formError}</FormAlert>}
      <PasswordField
        label={t('auth.passwordExpired.current')}
        name="old_password"
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={setPassword}
        error={fieldErrors.oldPassword?.[0]}
      />
      <NewPasswordFields password={passwordNew} fieldErrors={fieldErrors} />
      <Button type="submit" loading={loading}>
        {t('auth.passwordExpired.submit')}
      </Button>
      <AnotherAccountButton />
    </AuthForm>
  );
}
