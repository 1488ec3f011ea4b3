import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { isSystemUpdating, onHttpEvent } from '../lib/http';

/** Shown while the server answers 423 (system update); gone with the next normal answer. */
export function MaintenanceBanner() {
  const { t } = useTranslation();
  const [updating, setUpdating] = useState(isSystemUpdating);
  useEffect(() => {
    const offUpdate = onHttpEvent('system-update', () => setUpdating(true));
    const offAvailable = onHttpEvent('system-available', () => setUpdating(false));
    return () => {
      offUpdate();
      offAvailable();
    };
  }, []);
  if (!updating) return null;
  return (
    <div className="vigil-banner vigil-banner--warning" data-testid="maintenance-banner" role="status">
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className="vigil-banner__icon">
        <path
          d="M12 3 2 20h20L12 3Zm0 6v5m0 3v.01"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div>
        <strong>{t('maintenance.title')}</strong> <span>{t('maintenance.message')}</span>
      </div>
    </div>
  );
}
