import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { MaintenanceBanner } from '../../../components/maintenance-banner';
import { BrandMark } from '../../../components/ui/brand-mark';
import { LanguageFlag } from '../../../components/ui/flags';
import { currentLanguage, languages } from '../../../lib/i18n';
import { changeLocale, labelOf, useCurrentUser } from '../../../lib/session';

/** The frame of the sign-in screens: label, the card, and the language choice. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const language = currentLanguage();
  return (
    <div className="vigil-auth">
      <MaintenanceBanner />
      <main className="vigil-auth__main">
        <div className="vigil-auth__card">
          <div className="vigil-auth__brand">
            <BrandMark size={40} />
            <p className="vigil-auth__label" data-testid="app-label">
              {labelOf(user)}
            </p>
          </div>
          {children}
        </div>
        <div className="vigil-auth__languages" role="group" aria-label={t('header.language')}>
          {languages.map((item) => (
            <button
              key={item}
              type="button"
              className="vigil-auth__language"
              aria-pressed={item === language}
              data-testid={`language-${item}`}
              onClick={() => void changeLocale(item)}
            >
              <LanguageFlag language={item} size={16} />
              {t(`languages.${item}`)}
            </button>
          ))}
        </div>
      </main>
      <footer className="vigil-auth__footer">{t('auth.footer')}</footer>
    </div>
  );
}
