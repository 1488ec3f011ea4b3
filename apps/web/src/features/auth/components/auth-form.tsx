import { useState, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ApiError } from '../../../lib/http';
import { abandonSignIn } from '../api/auth';
import { Button, Field } from './controls';
import { PasswordRules, passwordRules } from './password-rules';

/** A sign-in screen's form: its title and subtitle above the fields; the browser's own checks stay off. */
export function AuthForm({
  step,
  user,
  onSubmit,
  children,
}: {
  /** Titled `auth.<step>.title`, with the subtitle `auth.<step>.subtitle` naming the user. */
  step: 'signIn' | 'activation' | 'otp' | 'passwordExpired';
  user?: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form
      className="vigil-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <div>
        <h1 className="vigil-auth__title">{t(`auth.${step}.title`)}</h1>
        <p className="vigil-auth__subtitle">{t(`auth.${step}.subtitle`, { user: user ?? '' })}</p>
      </div>
      {children}
    </form>
  );
}

/** Leaves the sign-in under way for the sign-in form, to sign in with another account. */
export function AnotherAccountButton() {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" onClick={() => void abandonSignIn()}>
      {t('auth.useAnotherAccount')}
    </Button>
  );
}

/** What a check before sending found wrong: a message over the form, messages under fields, or both. */
export interface AuthRefusal {
  form?: string;
  fields?: Record<string, string[]>;
}

/**
 * One submission of a sign-in screen at a time: the last errors are cleared, `check` may refuse before
 * anything is sent, and a refusal by the server is spread over the fields it names and the form (the form
 * shows `failed` only when no field message explains it; a lost connection shows the network message).
 */
export function useAuthSubmit() {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});

  async function submit({
    check,
    send,
    logLabel,
    failed,
    afterFailure,
  }: {
    check?: () => AuthRefusal | null;
    send: () => Promise<unknown>;
    /** Written before the error in the browser console. */
    logLabel: string;
    failed: string;
    afterFailure?: () => void;
  }) {
    if (loading) return;
    setFormError(null);
    setFieldErrors({});
    const refusal = check?.() ?? null;
    if (refusal) {
      setFormError(refusal.form ?? null);
      setFieldErrors(refusal.fields ?? {});
      return;
    }
    setLoading(true);
    try {
      await send();
    } catch (error) {
      console.error(logLabel, error);
      if (error instanceof ApiError && error.status !== 0) {
        const { nonFieldErrors, ...fields } = error.fieldErrors;
        setFieldErrors(fields);
        setFormError(nonFieldErrors?.[0] ?? (Object.keys(fields).length > 0 ? null : (error.detail ?? failed)));
      } else {
        setFormError(t('errors.network'));
      }
      afterFailure?.();
    } finally {
      setLoading(false);
    }
  }

  return { loading, formError, fieldErrors, setFormError, setFieldErrors, submit };
}

/** A password box of the sign-in screens; `reveal` adds the button that shows what was typed. */
export function PasswordField({
  reveal = true,
  ...field
}: Omit<ComponentProps<typeof Field>, 'type' | 'maxLength' | 'revealLabel'> & { reveal?: boolean }) {
  const { t } = useTranslation();
  return <Field {...field} type="password" maxLength={200} revealLabel={reveal ? t('auth.showPassword') : undefined} />;
}

/** A new password typed twice, and whether it meets every rule (a changed one must differ from `current`). */
export function useNewPassword(username: string, current?: string) {
  const [value, setValue] = useState('');
  const [repeat, setRepeat] = useState('');
  const rulesMet = passwordRules({ password: value, repeat, username, current }).every((rule) => rule.met);
  return { value, repeat, setValue, setRepeat, username, current, rulesMet };
}

/** The new password typed twice, with the rules it must meet ticked as it is typed. */
export function NewPasswordFields({
  password,
  fieldErrors,
  autoFocus = false,
}: {
  password: ReturnType<typeof useNewPassword>;
  fieldErrors: Record<string, string[]>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={t('auth.passwordExpired.new')}
        name="new_password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={password.value}
        onChange={password.setValue}
        error={fieldErrors.newPassword?.join(' ')}
      />
      <PasswordField
        label={t('auth.passwordExpired.repeat')}
        name="new_password_retry"
        autoComplete="new-password"
        reveal={false}
        value={password.repeat}
        onChange={password.setRepeat}
        error={fieldErrors.newPasswordRetry?.[0]}
      />
      <PasswordRules
        password={password.value}
        repeat={password.repeat}
        username={password.username}
        current={password.current}
      />
    </>
  );
}
