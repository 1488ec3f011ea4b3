import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isCancelled } from '../../../lib/http';
import { useMiniRouter } from '../../../lib/mini-router';
import { LOGIN_PATH } from '../../../lib/session';
import { activate, continueSignIn, fetchActivation, type ActivationInfo } from '../api/auth';
import { Button, Field, FormAlert } from './controls';
import { PasswordRules, passwordRules } from './password-rules';

type LinkState =
  { status: 'checking' } | { status: 'valid'; info: ActivationInfo } | { status: 'invalid'; message: string };

/** An activation (or password-reset) link: choose a password, then the console opens. */
export function ActivationPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const { navigate } = useMiniRouter();
  const [link, setLink] = useState<LinkState>({ status: 'checking' });
  const [passwordNew, setPasswordNew] = useState('');
  const [passwordNewRepeat, setPasswordNewRepeat] = useState('');
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [done, setDone] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchActivation(token, controller.signal).then(
      (info) => setLink({ status: 'valid', info }),
      (error: unknown) => {
        if (isCancelled(error)) return;
        setLink({
          status: 'invalid',
          message: error instanceof ApiError && error.detail ? error.detail : t('auth.activation.invalid'),
        });
      },
    );
    return () => controller.abort();
  }, [token, t]);

  if (link.status === 'checking') {
    return (
      <div className="vigil-form vigil-form--center" aria-busy="true">
        <span className="vigil-spinner" />
      </div>
    );
  }
  const toSignIn = (
    <Button variant={done ? 'primary' : 'default'} onClick={() => navigate(LOGIN_PATH)}>
      {t('auth.activation.toSignIn')}
    </Button>
  );
  if (link.status === 'invalid') {
    return (
      <div className="vigil-form">
        <h1 className="vigil-auth__title">{t('auth.activation.title')}</h1>
        <FormAlert>{link.message}</FormAlert>
        {toSignIn}
      </div>
    );
  }
  if (done) {
    return (
      <div className="vigil-form">
        <h1 className="vigil-auth__title">{t('auth.activation.doneTitle')}</h1>
        <p className="vigil-auth__subtitle">{t('auth.activation.doneMessage')}</p>
        {toSignIn}
      </div>
    );
  }

  const username = link.info.username;
  const rulesMet = passwordRules({ password: passwordNew, repeat: passwordNewRepeat, username }).every(
    (rule) => rule.met,
  );

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    setFormError(null);
    setFieldErrors({});
    if (!rulesMet) {
      setFormError(t('auth.passwordExpired.rulesNotMet'));
      return;
    }
    setLoading(true);
    try {
      const state = await activate(token, { newPassword: passwordNew, newPasswordRetry: passwordNewRepeat });
      if (state.authenticated) {
        await continueSignIn();
        return;
      }
      setDone(true);
    } catch (error) {
      console.error('Activation refused:', error);
      if (error instanceof ApiError && error.status !== 0) {
        const { nonFieldErrors, ...fields } = error.fieldErrors;
        setFieldErrors(fields);
        setFormError(
          nonFieldErrors?.[0] ??
            (Object.keys(fields).length > 0 ? null : (error.detail ?? t('auth.activation.failed'))),
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
        <h1 className="vigil-auth__title">{t('auth.activation.title')}</h1>
        <p className="vigil-auth__subtitle">{t('auth.activation.subtitle', { user: username })}</p>
      </div>
      {formError && <FormAlert>{formError}</FormAlert>}
      <Field
        label={t('auth.passwordExpired.new')}
        type="password"
        autoComplete="new-password"
        autoFocus
        maxLength={200}
        value={passwordNew}
        onChange={setPasswordNew}
        error={fieldErrors.newPassword?.join(' ')}
        revealLabel={t('auth.showPassword')}
      />
      <Field
        label={t('auth.passwordExpired.repeat')}
        type="password"
        autoComplete="new-password"
        maxLength={200}
        value={passwordNewRepeat}
        onChange={setPasswordNewRepeat}
        error={fieldErrors.newPasswordRetry?.[0]}
      />
      <PasswordRules password={passwordNew} repeat={passwordNewRepeat} username={username} />
      <Button type="submit" loading={loading}>
        {t('auth.activation.submit')}
      </Button>
    </form>
  );
}
