import './types';

export {
  browserLanguage,
  changeLanguage,
  currentLanguage,
  DEFAULT_LANGUAGE,
  i18next,
  initI18n,
  initialLanguage,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  languages,
  loadSections,
  storedLanguage,
} from './i18n';
export { useTranslation } from './react';
export { valueLabel } from './value-label';
export type { TFunction, TranslationKey, Translator } from './translator';
export type { Language } from './i18n';
export type { Section } from './sections';
export type { Translation } from './types';
