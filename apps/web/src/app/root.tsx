import { lazy, Suspense } from 'react';
import { useTranslation } from '../lib/i18n';
import { ErrorBoundary } from '../components/error-boundary';
import { SystemUpdatePage } from '../features/maintenance/components/system-update-page';
import { useSystemUpdating } from '../features/maintenance/lib/system-update';
import { NotificationViewport } from '../lib/notifications';
import { ProgressBar } from '../lib/progress';
import { isActivationPath, isMainAppAllowed, useCurrentUser } from '../lib/session';
import { VigilThemeProvider } from '../lib/theme';

/** The two applications are separate chunks: loading one never downloads the other. */
const MainApp = lazy(() => import('./main-app'));
const ReducedApp = lazy(() => import('./reduced-app'));

function Splash() {
  return (
    <div className="vigil-splash" aria-busy="true">
      <span className="vigil-spinner" />
    </div>
  );
}

/** Chooses the application for the user's state and hosts what both share. */
export function Root() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  // While the server answers 423 the whole page says so; the application comes back, at the same
  // address, with the first normal answer.
  const updating = useSystemUpdating();
  // An activation link always opens its screen, even in a browser where someone is signed in.
  const path = window.location.pathname;
  const main = isMainAppAllowed(user, path) && !isActivationPath(path);
  return (
    <VigilThemeProvider>
      <ProgressBar label={t('common.loading')} />
      <ErrorBoundary
        texts={{
          chunkTitle: t('errors.chunkTitle'),
          chunkMessage: t('errors.chunkMessage'),
          errorTitle: t('errors.renderTitle'),
          errorMessage: t('errors.renderMessage'),
          reload: t('errors.reload'),
        }}
      >
        {updating ? (
          <SystemUpdatePage />
        ) : (
          <Suspense fallback={<Splash />}>{main ? <MainApp /> : <ReducedApp />}</Suspense>
        )}
      </ErrorBoundary>
      <NotificationViewport closeLabel={t('common.close')} />
    </VigilThemeProvider>
  );
}
