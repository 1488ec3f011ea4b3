import { ActivationPage } from '../features/auth/components/activation-page';
import { AuthLayout } from '../features/auth/components/auth-layout';
import { OtpPage } from '../features/auth/components/otp-page';
import { PasswordExpiredPage } from '../features/auth/components/password-expired-page';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { BrowserRouter, matchPath, Navigate, useLocation } from '../lib/router';
import {
  ACTIVATION_PATH_PREFIX,
  LOGIN_PATH,
  MAILED_ACTIVATION_PATH_PREFIX,
  OTP_PATH,
  PASSWORD_EXPIRED_PATH,
  savePath,
  useCurrentUser,
  type CurrentUser,
} from '../lib/session';

/** Where a user in this state belongs in the reduced application. */
function stepOf(user: CurrentUser | null): string {
  if (!user) return LOGIN_PATH;
  if (!user.twoFactorPassed) return OTP_PATH;
  return PASSWORD_EXPIRED_PATH;
}

const steps = {
  [LOGIN_PATH]: SignInPage,
  [OTP_PATH]: OtpPage,
  [PASSWORD_EXPIRED_PATH]: PasswordExpiredPage,
} as const;

function Screens() {
  const user = useCurrentUser();
  const { pathname, search } = useLocation();
  const activation =
    matchPath(`${ACTIVATION_PATH_PREFIX}:token`, pathname) ??
    matchPath(`${MAILED_ACTIVATION_PATH_PREFIX}:token`, pathname);
  if (activation) return <ActivationPage token={activation.token ?? ''} />;
  const step = stepOf(user);
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === step) {
    const Screen = steps[step as keyof typeof steps];
    return <Screen />;
  }
  // Any other address (or another user's step): remembered for after sign-in, then on to the user's step.
  if (!(path in steps)) savePath(`${pathname}${search}${window.location.hash}`);
  return <Navigate to={step} replace />;
}

/**
 * The reduced application: sign-in, one-time password, password expired and
 * activation. It is a separate chunk and never loads the main application's code.
 */
export default function ReducedApp() {
  return (
    <BrowserRouter>
      <AuthLayout>
        <Screens />
      </AuthLayout>
    </BrowserRouter>
  );
}
