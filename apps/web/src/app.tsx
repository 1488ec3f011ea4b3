import { useCallback, useEffect, useState } from 'react';
import { AppHeader } from './components/app-header';
import { BrandMark } from './components/brand-mark';
import { displayName, fetchAuthState, signOut, type CurrentUser } from './features/auth/api/auth';
import { SignInPage } from './features/auth/components/sign-in-page';
import { SystemLogPage } from './features/system-logs/components/system-log-page';

type Session =
  | { status: 'checking' }
  | { status: 'unreachable'; message: string }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: CurrentUser };

/** Start-up: ask the server who is signed in, then show the sign-in form or the console. */
export function App() {
  const [session, setSession] = useState<Session>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    fetchAuthState().then(
      (state) => {
        if (!current) return;
        setSession(
          state.authenticated && state.user ? { status: 'signed-in', user: state.user } : { status: 'signed-out' },
        );
      },
      (error: unknown) => {
        if (!current) return;
        const message = error instanceof Error ? error.message : 'Vigil could not be reached.';
        setSession({ status: 'unreachable', message });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const handleSessionEnded = useCallback(() => setSession({ status: 'signed-out' }), []);

  async function handleSignOut() {
    setSigningOut(true);
    setSignOutError(null);
    try {
      const { logout_url: logoutUrl } = await signOut();
      window.history.replaceState(null, '', logoutUrl);
      setSession({ status: 'signed-out' });
    } catch (error) {
      setSignOutError(error instanceof Error ? error.message : 'Signing out failed. Try again.');
    } finally {
      setSigningOut(false);
    }
  }

  switch (session.status) {
    case 'checking':
      return (
        <div className="splash" aria-busy="true">
          <BrandMark size={40} />
          <span className="splash__text">Loading Vigil…</span>
        </div>
      );
    case 'unreachable':
      return (
        <div className="splash">
          <BrandMark size={40} />
          <p className="splash__text" role="alert">
            {session.message}
          </p>
          <button type="button" className="button button--primary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      );
    case 'signed-out':
      return (
        <SignInPage
          onSignedIn={(state) => {
            if (!state.user) return;
            // The sign-in path is not a place to stay once signed in.
            if (window.location.pathname === '/login') window.history.replaceState(null, '', '/');
            setSession({ status: 'signed-in', user: state.user });
          }}
        />
      );
    case 'signed-in':
      return (
        <div className="shell">
          <AppHeader
            userName={displayName(session.user)}
            signingOut={signingOut}
            onSignOut={() => void handleSignOut()}
          />
          <main className="shell__main">
            {signOutError && (
              <div className="alert alert--error" role="alert">
                {signOutError}
              </div>
            )}
            {session.user.password_expired && (
              <div className="alert alert--warning" role="status">
                Your password has expired and should be changed. The password change screen is not part of this build
                yet.
              </div>
            )}
            <SystemLogPage onSessionEnded={handleSessionEnded} />
          </main>
        </div>
      );
  }
}
