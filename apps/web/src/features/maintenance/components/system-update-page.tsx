import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { BrandMark } from '../../../components/ui/brand-mark';
import { endpoints } from '@vigil/contract/client';
import { call } from '../../../lib/http';
import { changeLanguage, currentLanguage, languages } from '../../../lib/i18n';
import { retryUntilAvailable, SYSTEM_UPDATE_RETRY_MS } from '../lib/system-update';

/** The question asked on every retry: any answer but 423 means the system is back. */
export function probeSystem(): Promise<unknown> {
  return call(endpoints.users.me, { notifyErrors: false, redirectOnUnauthorized: false });
}

/**
 * Full-page "System update in progress" (the server answers 423): asks again every few seconds and
 * calls `onAvailable` once the server answers normally. Whoever shows it puts the user back where
 * they were (the address never changes while it is shown).
 */
export function SystemUpdatePage({ onAvailable }: { onAvailable?: () => void }) {
  const { t } = useTranslation();
  const [checks, setChecks] = useState(0);
  const available = useRef(onAvailable);
  available.current = onAvailable;
  useEffect(
    () =>
      retryUntilAvailable(
        () => {
          setChecks((count) => count + 1);
          return probeSystem();
        },
        () => available.current?.(),
      ),
    [],
  );
  const language = currentLanguage();
  return (
    <div
      className="vigil-message-page"
      role="status"
      aria-live="polite"
      data-testid="system-update-page"
      // Its own background: shown instead of the application, whose Mantine styles may still hold the page's.
      style={{ background: 'var(--vigil-background)' }}
    >
      <BrandMark size={44} />
      <h1 className="vigil-text vigil-text--h2">{t('maintenance.pageTitle')}</h1>
      <p className="vigil-text vigil-text--body1 vigil-text--medium">{t('maintenance.pageMessage')}</p>
      <span className="vigil-spinner" aria-hidden="true" />
      <p className="vigil-text vigil-text--body3 vigil-text--medium" data-checks={checks}>
        {t('maintenance.retrying', { seconds: SYSTEM_UPDATE_RETRY_MS / 1000 })}
      </p>
      <div className="vigil-system-update__languages">
        {languages
          .filter((other) => other !== language)
          .map((other) => (
            <button
              key={other}
              type="button"
              className="vigil-button vigil-button--subtle"
              lang={other}
              onClick={() => void changeLanguage(other)}
            >
              {t(`languages.${other}`)}
            </button>
          ))}
      </div>
    </div>
  );
}
