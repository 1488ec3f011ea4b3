import type { SsoErrorCode } from '@vigil/contract';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation } from '../../../lib/router';
import { peekSavedPath, ssoAddress } from '../../../lib/session';
import { continueSignIn, findSsoProvider, signIn } from '../api/auth';
import { AuthForm, PasswordField, useAuthSubmit } from './auth-form';
import { Button, Field, FormAlert } from './controls';

/** The reasons the SSO callback gives (`/login?sso_error=<code>`), each with its sentence. */
const ssoErrorKeys = {
  unavailable: 'sso.errors.unavailable',
  invalid_state: 'sso.errors.invalid_state',
  denied: 'sso.errors.denied',
  provider_error: 'sso.errors.provider_error',
  email_missing: 'sso.errors.email_missing',
  no_account: 'sso.errors.no_account',
  account_disabled: 'sso.errors.account_disabled',
  subject_mismatch: 'sso.errors.subject_mismatch',
  server_error: 'sso.errors.server_error',
} as const satisfies Record<SsoErrorCode, string>;

function isSsoErrorCode(value: string | null): value is SsoErrorCode {
  return value !== null && Object.hasOwn(ssoErrorKeys, value);
}

/** Sign-in with a username or e-mail and a password; single sign-on for companies that use it. */
export function SignInPage() {
  const { t } = useTranslation();
  const params = new URLSearchParams(useLocation().search);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [ssoLoading, setSsoLoading] = useState(false);
  const { loading, formError, fieldErrors, setFormError, setFieldErrors, submit } = useAuthSubmit();

  const ssoError = params.get('sso_error');
  const ssoMessage = ssoError === null ? null : t(ssoErrorKeys[isSsoErrorCode(ssoError) ? ssoError : 'server_error']);

  function handleSubmit() {
    void submit({
      check: () =>
        username.trim() === '' || password === ''
          ? {
              fields: {
                ...(username.trim() === '' ? { username: [t('auth.signIn.usernameRequired')] } : {}),
                ...(password === '' ? { password: [t('auth.signIn.passwordRequired')] } : {}),
              },
            }
          : null,
      send: async () => {
        await signIn({ username: username.trim(), password });
        await continueSignIn();
      },
      // Sign-in errors are logged; the form shows them and keeps the username.
      logLabel: 'Sign-in failed:',
      failed: t('auth.signIn.failed'),
      afterFailure: () => setPassword(''),
    });
  }

  async function handleSso() {
    setFormError(null);
    setFieldErrors({});
    if (username.trim() === '') {
      setFieldErrors({ username: [t('auth.sso.usernameFirst')] });
      return;
    }
    setSsoLoading(true);
    try {
      const { ssoAuthorizeUrl } = await findSsoProvider(username.trim());
      if (ssoAuthorizeUrl) {
        window.location.assign(ssoAddress(ssoAuthorizeUrl, peekSavedPath()));
        return;
      }
      setFormError(t('auth.sso.notAvailable'));
    } catch (error) {
      console.error('Single sign-on lookup failed:', error);
      setFormError(t('auth.sso.notAvailable'));
    }
    setSsoLoading(false);
  }

  return (
    <AuthForm step="signIn" onSubmit={handleSubmit}>
      {ssoMessage && !formError && <FormAlert testId="sso-error">{ssoMessage}</FormAlert>}
      {formError && <FormAlert testId="sign-in-error">{formError}</FormAlert>}
      <Field
        label={t('auth.signIn.username')}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        maxLength={254}
        value={username}
        onChange={setUsername}
        error={fieldErrors.username?.[0]}
      />
      <PasswordField
        label={t('auth.signIn.password')}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={fieldErrors.password?.[0]}
      />
      <Button type="submit" loading={loading} data-testid="sign-in-submit">
        {t('auth.signIn.submit')}
      </Button>
      <div className="vigil-divider">
        <span>{t('auth.or')}</span>
      </div>
      <Button variant="default" loading={ssoLoading} onClick={() => void handleSso()}>
        {t('auth.sso.button')}
      </Button>
      <p className="vigil-auth__hint">{t('auth.signIn.help')}</p>
    </AuthForm>
  );
}
