import { configureHttp } from '../lib/http';
import { currentLanguage, i18next } from '../lib/i18n';
import { notify, notifyServerMessage } from '../lib/notifications';
import { progressRequestEnded, progressRequestStarted } from '../lib/progress';
import { currentPath, isAuthPath, isMainAppExcludedLocation, LOGIN_PATH, savePath } from '../lib/session';

let leaving = false;

/**
 * Whether a 401 on this page sends the browser to sign in: not from the sign-in screens themselves,
 * and not from the excluded locations the main application opens on anyway (the headless-browser
 * pages, whose rendering service has its own session and must get the page, not the sign-in form).
 */
export function redirectsToSignIn(pathname: string): boolean {
  return !isAuthPath(pathname) && !isMainAppExcludedLocation(pathname);
}

/**
 * Start-up step 3, after fetching the current user and applying the label: connects the HTTP client
 * to the language, notifications, progress bar and sign-in.
 */
export function setUpRequestHandling(): void {
  configureHttp({
    locale: currentLanguage,
    notify: ({ fromServer, ...notification }) => {
      if (fromServer) notifyServerMessage(notification);
      else notify(notification);
    },
    texts: () => ({
      errorTitle: i18next.t('errors.somethingWrong'),
      errorMessage: (status) => i18next.t('errors.backendAnswered', { status }),
      networkError: i18next.t('errors.network'),
      invalidTitle: i18next.t('errors.invalidTitle'),
      invalidMessage: i18next.t('errors.invalidMessage'),
    }),
    onUnauthorized: () => {
      // To the sign-in page, unless already on an auth page or an excluded location; come back here afterwards.
      if (leaving || !redirectsToSignIn(window.location.pathname)) return;
      leaving = true;
      savePath(currentPath());
      window.location.assign(LOGIN_PATH);
    },
    onRequestStart: progressRequestStarted,
    onRequestEnd: progressRequestEnded,
  });
}
