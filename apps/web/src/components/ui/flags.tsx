import type { Language } from '../../lib/i18n';

/** Small flags of the interface languages (drawn, so they look the same without an emoji font). */
export function LanguageFlag({ language, size = 18 }: { language: Language; size?: number }) {
  const height = Math.round((size * 2) / 3);
  if (language === 'ru') {
    return (
      <svg width={size} height={height} viewBox="0 0 9 6" aria-hidden="true" className="vigil-flag">
        <rect width="9" height="2" fill="#fff" />
        <rect y="2" width="9" height="2" fill="#0039a6" />
        <rect y="4" width="9" height="2" fill="#d52b1e" />
      </svg>
    );
  }
  return (
    <svg width={size} height={height} viewBox="0 0 60 40" aria-hidden="true" className="vigil-flag">
      <clipPath id="vigil-flag-gb">
        <rect width="60" height="40" />
      </clipPath>
      <g clipPath="url(#vigil-flag-gb)">
        <rect width="60" height="40" fill="#012169" />
        <path d="M0 0l60 40M60 0L0 40" stroke="#fff" strokeWidth="8" />
        <path d="M0 0l60 40M60 0L0 40" stroke="#C8102E" strokeWidth="3" />
        <path d="M30 0v40M0 20h60" stroke="#fff" strokeWidth="12" />
        <path d="M30 0v40M0 20h60" stroke="#C8102E" strokeWidth="7" />
      </g>
    </svg>
  );
}
