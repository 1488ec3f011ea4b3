import type { CurrentUser } from '@vigil/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setDateLanguage } from '../dates/zone';
import type { en } from './locales/en';

export type Language = CurrentUser['locale'];
export const languages = ['en', 'ru'] as const satisfies readonly Language[];
export const DEFAULT_LANGUAGE: Language = 'en';
/** localStorage key of the chosen language, kept as a JSON string such as `"ru"`. */
export const LANGUAGE_STORAGE_KEY = 'user-language';

/** Each language is its own chunk: only the one shown is downloaded. */
const loaders: Record<Language, () => Promise<typeof en>> = {
  en: () => import('./locales/en').then((module) => module.en),
  ru: () => import('./locales/ru').then((module) => module.ru),
};

export async function loadTranslation(language: Language): Promise<typeof en> {
  return loaders[language]();
}

async function ensureLoaded(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  i18next.addResourceBundle(language, 'translation', await loadTranslation(language));
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** The language kept in this browser, if any (a JSON string). */
export function storedLanguage(): Language | null {
  try {
    const raw = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** The first part of the browser's language code when the console speaks it, else English. */
export function browserLanguage(): Language {
  const code = (typeof navigator === 'undefined' ? '' : navigator.language).split('-')[0]?.toLowerCase();
  return isLanguage(code) ? code : DEFAULT_LANGUAGE;
}

/** The language at start-up: the one chosen in this browser, else the browser's. */
export function initialLanguage(): Language {
  return storedLanguage() ?? browserLanguage();
}

function applyDocumentLanguage(language: Language): void {
  setDateLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/** Starts i18next. A key missing from a language is logged as an error (and shown as the key). */
export async function initI18n(language: Language = initialLanguage()): Promise<typeof i18next> {
  applyDocumentLanguage(language);
  await i18next.use(initReactI18next).init({
    resources: { [language]: { translation: await loadTranslation(language) } },
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: (lngs, _namespace, key) => {
      console.error(`Missing translation "${key}" (${lngs.join(', ')})`);
    },
  });
  return i18next;
}

/** Switches the interface language now and keeps the choice in this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, JSON.stringify(language));
  await ensureLoaded(language);
  applyDocumentLanguage(language);
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

export { i18next };
