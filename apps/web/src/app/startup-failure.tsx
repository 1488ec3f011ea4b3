import { useTranslation } from '../lib/i18n';
import { BrandMark } from '../components/ui/brand-mark';

/** The server could not say who is signed in (down, or failing): say so, and offer to try again. */
export function StartupFailure({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="vigil-message-page" role="alert">
      <BrandMark size={44} />
      <h1 className="vigil-text vigil-text--h2">{t('startup.failedTitle')}</h1>
      <p className="vigil-text vigil-text--body1 vigil-text--medium">{t('startup.failedMessage')}</p>
      <button type="button" className="vigil-button vigil-button--primary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}
