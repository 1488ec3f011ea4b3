import { configureHttp } from '../lib/http';
import { currentLanguage, i18next } from '../lib/i18n';
import { notify, notifyServerMessage } from '../lib/notifications';
import { progressRequestEnded, progressRequestStarted } from '../lib/progress';
import { currentPath, isAuthPath, LOGIN_PATH, savePath } from '../lib/session';

let leaving = false;

/** Start-up step 3 (spec §2): connects the HTTP client to the language, notifications, progress bar and sign-in. */
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
    }),
    onUnauthorized: () => {
      // Spec §8: to the sign-in page, unless already on an auth page; come back here afterwards.
      if (leaving || isAuthPath(window.location.pathname)) return;
      leaving = true;
      savePath(currentPath());
      window.location.assign(LOGIN_PATH);
    },
    onRequestStart: progressRequestStarted,
    onRequestEnd: progressRequestEnded,
  });
}
