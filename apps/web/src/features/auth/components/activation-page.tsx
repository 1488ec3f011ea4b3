import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ApiError, isCancelled } from '../../../lib/http';
import { useNavigate } from '../../../lib/router';
import { LOGIN_PATH } from '../../../lib/session';
import { activate, continueSignIn, fetchActivation, type ActivationInfo } from '../api/auth';
import { AuthForm, NewPasswordFields, useAuthSubmit, useNewPassword } from './auth-form';
import { Button, FormAlert } from './controls';

type LinkState =
  { status: 'checking' } | { status: 'valid'; info: ActivationInfo } | { status: 'invalid'; message: string };

/** An activation (or password-reset) link: choose a password, then the console opens. */
export function ActivationPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [link, setLink] = useState<LinkState>({ status: 'checking' });
  const passwordNew = useNewPassword(link.status === 'valid' ? link.info.username : '');
  const { loading, formError, fieldErrors, submit } = useAuthSubmit();
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

  function handleSubmit() {
    void submit({
      check: () => (passwordNew.rulesMet ? null : { form: t('auth.passwordExpired.rulesNotMet') }),
      send: async () => {
        const state = await activate(token, {
          newPassword: passwordNew.value,
          newPasswordRetry: passwordNew.repeat,
        });
        if (state.authenticated) {
          await continueSignIn();
          return;
        }
        setDone(true);
      },
      logLabel: 'Activation refused:',
      failed: t('auth.activation.failed'),
    });
  }

  return (
    <AuthForm step="activation" user={username} onSubmit={handleSubmit}>
      {formError && <FormAlert>{formError}</FormAlert>}
      <NewPasswordFields password={passwordNew} fieldErrors={fieldErrors} autoFocus />
      <Button type="submit" loading={loading}>
        {t('auth.activation.submit')}
      </Button>
    </AuthForm>
  );
}
