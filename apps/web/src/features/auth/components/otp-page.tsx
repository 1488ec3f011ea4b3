import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ApiError } from '../../../lib/http';
import { useCurrentUser } from '../../../lib/session';
import { continueSignIn, submitOtp } from '../api/auth';
import { AnotherAccountButton, AuthForm } from './auth-form';
import { Button, CodeInput, FormAlert } from './controls';

export const OTP_LENGTH = 6;

/** The one-time code from an authenticator app: six boxes; pasting a code fills them all. */
export function OtpPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [code, setCode] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(value: string) {
    if (loading) return;
    if (!/^\d{6}$/.test(value)) {
      setError(t('auth.otp.incomplete'));
      return;
    }
    setLoading(true);
    setError(null);
    try {
      await submitOtp(value);
      await continueSignIn();
    } catch (failure) {
      console.error('One-time code refused:', failure);
      setError(
        failure instanceof ApiError && failure.status !== 0
          ? (failure.fieldError('code') ??
              failure.fieldError('nonFieldErrors') ??
              failure.detail ??
              t('auth.otp.failed'))
          : t('errors.network'),
      );
      setCode('');
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthForm step="otp" user={user?.username ?? ''} onSubmit={() => void submit(code)}>
      {error && <FormAlert testId="otp-error">{error}</FormAlert>}
      <CodeInput
        length={OTP_LENGTH}
        value={code}
        onChange={setCode}
        onComplete={(value) => void submit(value)}
        label={t('auth.otp.code')}
        digitLabel={(index) => t('auth.otp.digit', { n: index + 1 })}
        disabled={loading}
        invalid={error !== null}
      />
      <Button type="submit" loading={loading}>
        {t('auth.otp.submit')}
      </Button>
      <AnotherAccountButton />
    </AuthForm>
  );
}
