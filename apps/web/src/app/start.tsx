import { StrictMode } from 'react';
import { createRoot, type Root as ReactRoot } from 'react-dom/client';
import { SystemUpdatePage } from '../features/maintenance/components/system-update-page';
import { ApiError } from '../lib/http';
import { initI18n, initialLanguage } from '../lib/i18n';
import {
  applyLabel,
  currentPath,
  fetchCurrentUser,
  isMainAppAllowed,
  setCurrentUser,
  peekSavedPath,
  savePath,
  ssoAddress,
  type CurrentUser,
} from '../lib/session';
import { applyTheme, DEFAULT_THEME } from '../lib/theme';
import { setUpRequestHandling } from './request-handling';
import { Root } from './root';
import { StartupFailure } from './startup-failure';

/**
 * Start-up, in this order: fetch the current user, apply the label, set up request
 * handling, apply the theme, then load the main or the reduced application.
 */
export async function startConsole(container: HTMLElement, reactRoot: ReactRoot = createRoot(container)) {
  const i18nReady = initI18n(initialLanguage(), []);

  // 1. Who is signed in (401: nobody).
  let user: CurrentUser | null;
  try {
    user = await fetchCurrentUser();
  } catch (error) {
    await i18nReady;
    if (error instanceof ApiError && error.status === 423) {
      // The system is being updated: say so, and start again once the server answers normally.
      applyTheme(DEFAULT_THEME);
      reactRoot.render(<SystemUpdatePage onAvailable={() => void startConsole(container, reactRoot)} />);
      return;
    }
    console.error('The current user could not be loaded', error);
    reactRoot.render(<StartupFailure onRetry={() => void startConsole(container, reactRoot)} />);
    return;
  }

  // 2. The label, in the document title and the header.
  applyLabel(user);
  // 3. Request handling: language, notifications, progress bar, the 401 redirect.
  setUpRequestHandling();
  // 4. The theme: the user's; `?theme=` overrides it for this page (reports rendered by a headless browser).
  applyTheme(user?.theme ?? DEFAULT_THEME);
  const requested = new URLSearchParams(window.location.search).get('theme');
  if (requested !== null) applyTheme(requested);

  // Single sign-on: a user of a company that signs in through its provider goes there to finish.
  if (user?.ssoAuthorizeUrl && !isMainAppAllowed(user, window.location.pathname)) {
    savePath(currentPath());
    window.location.assign(ssoAddress(user.ssoAuthorizeUrl, peekSavedPath()));
    return;
  }

  setCurrentUser(user);
  await i18nReady;
  // 5. The main or the reduced application, each its own chunk (see Root).
  reactRoot.render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}
