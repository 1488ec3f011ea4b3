import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/http';
import { useCurrentUser } from '../../../lib/session';
import { abandonSignIn, changePassword, continueSignIn } from '../api/auth';
import { Button, Field, FormAlert } from './controls';
import { PasswordRules, passwordRules } from './password-rules';

/** The password has expired (or is the first, generated one): choose a new one to go on. */
export function PasswordExpiredPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [password, setPassword] = useState('');
  const [passwordNew, setPasswordNew] = useState('');
  const [passwordNewRepeat, setPasswordNewRepeat] = useState('');
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const username = user?.username ?? '';
  const rulesMet = passwordRules({
    password: passwordNew,
    repeat: passwordNewRepeat,
    username,
    current: password,
  }).every((rule) => rule.met);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    setFormError(null);
    setFieldErrors({});
    if (password === '') {
      setFieldErrors({ oldPassword: [t('auth.passwordExpired.currentRequired')] });
      return;
    }
    if (!rulesMet) {
      setFormError(t('auth.passwordExpired.rulesNotMet'));
      return;
    }
    setLoading(true);
    try {
      // password, passwordNew and passwordNewRepeat go as old_password, new_password, new_password_retry.
      await changePassword({ oldPassword: password, newPassword: passwordNew, newPasswordRetry: passwordNewRepeat });
      await continueSignIn();
    } catch (error) {
      console.error('Password change refused:', error);
      if (error instanceof ApiError && error.status !== 0) {
        const { nonFieldErrors, ...fields } = error.fieldErrors;
        setFieldErrors(fields);
        setFormError(
          nonFieldErrors?.[0] ??
            (Object.keys(fields).length > 0 ? null : (error.detail ?? t('auth.passwordExpired.failed'))),
        );
      } else {
        setFormError(t('errors.network'));
      }
    } finally {
      setLoading(false);
    }
  }

  return (
    <form className="vigil-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <div>
        <h1 className="vigil-auth__title">{t('auth.passwordExpired.title')}</h1>
        <p className="vigil-auth__subtitle">{t('auth.passwordExpired.subtitle', { user: username })}</p>
      </div>
      {formError && <FormAlert testId="password-error">{formError}</FormAlert>}
      <Field
        label={t('auth.passwordExpired.current')}
        name="old_password"
        type="password"
        autoComplete="current-password"
        autoFocus
        maxLength={200}
        value={password}
        onChange={setPassword}
        error={fieldErrors.oldPassword?.[0]}
        revealLabel={t('auth.showPassword')}
      />
      <Field
        label={t('auth.passwordExpired.new')}
        name="new_password"
        type="password"
        autoComplete="new-password"
        maxLength={200}
        value={passwordNew}
        onChange={setPasswordNew}
        error={fieldErrors.newPassword?.join(' ')}
        revealLabel={t('auth.showPassword')}
      />
      <Field
        label={t('auth.passwordExpired.repeat')}
        name="new_password_retry"
        type="password"
        autoComplete="new-password"
        maxLength={200}
        value={passwordNewRepeat}
        onChange={setPasswordNewRepeat}
        error={fieldErrors.newPasswordRetry?.[0]}
      />
      <PasswordRules password={passwordNew} repeat={passwordNewRepeat} username={username} current={password} />
      <Button type="submit" loading={loading}>
        {t('auth.passwordExpired.submit')}
      </Button>
      <Button variant="subtle" onClick={() => void abandonSignIn()}>
        {t('auth.useAnotherAccount')}
      </Button>
    </form>
  );
}
