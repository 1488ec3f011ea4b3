import { useId, useRef, useState, type FormEvent } from 'react';
import { BrandMark } from '../../../components/brand-mark';
import { ApiError } from '../../../lib/api-client';
import { signIn, type AuthState } from '../api/auth';

interface SignInPageProps {
  onSignedIn: (state: AuthState) => void;
}

/** The sign-in form. On refusal it shows the server's words and keeps the username. */
export function SignInPage({ onSignedIn }: SignInPageProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    setFormError(null);
    setFieldErrors({});
    try {
      const state = await signIn(username, password);
      if (!state.authenticated) {
        setFormError('The server did not start a session. Try again.');
        return;
      }
      onSignedIn(state);
    } catch (error) {
      if (error instanceof ApiError) {
        const { non_field_errors: general, ...fields } = error.fieldErrors;
        setFieldErrors(fields);
        setFormError(general?.[0] ?? (Object.keys(fields).length > 0 ? null : error.message));
      } else {
        setFormError('Something went wrong. Try again.');
      }
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      setSubmitting(false);
    }
  }

  const usernameError = fieldErrors.username?.[0];
  const passwordError = fieldErrors.password?.[0];

  return (
    <main className="sign-in">
      <form className="sign-in__card" onSubmit={(event) => void handleSubmit(event)} noValidate>
        <div className="sign-in__brand">
          <BrandMark size={40} />
        </div>
        <h1 className="sign-in__title">Vigil Managed XDR</h1>
        <p className="sign-in__subtitle">Sign in to the security console</p>

        {formError && (
          <div className="alert alert--error" role="alert" data-testid="sign-in-error">
            {formError}
          </div>
        )}

        <div className="field">
          <label className="field__label" htmlFor={`${ids}-username`}>
            Username or e-mail
          </label>
          <input
            id={`${ids}-username`}
            className="field__input"
            name="username"
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            aria-invalid={usernameError ? true : undefined}
            aria-describedby={usernameError ? `${ids}-username-error` : undefined}
          />
          {usernameError && (
            <p className="field__error" id={`${ids}-username-error`}>
              {usernameError}
            </p>
          )}
        </div>

        <div className="field">
          <label className="field__label" htmlFor={`${ids}-password`}>
            Password
          </label>
          <input
            id={`${ids}-password`}
            ref={passwordRef}
            className="field__input"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? `${ids}-password-error` : undefined}
          />
          {passwordError && (
            <p className="field__error" id={`${ids}-password-error`}>
              {passwordError}
            </p>
          )}
        </div>

        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="sign-in__footer">Managed detection and response</p>
    </main>
  );
}
