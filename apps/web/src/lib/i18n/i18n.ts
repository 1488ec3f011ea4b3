import type { CurrentUser } from '@vigil/contract';
import { setDateLanguage } from '../dates/zone';
import { coreLoaders, sectionLoaders, type Section } from './sections';
import { i18next, type Translator } from './translator';

const allSections = Object.keys(sectionLoaders.en) as Section[];

export type Language = CurrentUser['locale'];
export const languages = ['en', 'ru'] as const satisfies readonly Language[];
export const DEFAULT_LANGUAGE: Language = 'en';
/** localStorage key of the chosen language, kept as a JSON string such as `"ru"`. */
export const LANGUAGE_STORAGE_KEY = 'user-language';

/** Sections asked for so far (by the pages opened): a change of language loads them in the new one too. */
const wanted = new Set<Section>();
/** The parts of each language already added to i18next. */
const loaded: Record<Language, Set<Section | 'core'>> = { en: new Set(), ru: new Set() };

/** Adds to i18next what is missing of a language's core and of the given sections. */
async function ensureLoaded(language: Language, sections: readonly Section[]): Promise<void> {
  const have = loaded[language];
  const missing = sections.filter((section) => !have.has(section));
  const [coreTexts, ...parts] = await Promise.all([
    have.has('core') ? null : coreLoaders[language](),
    ...missing.map((section) => sectionLoaders[language][section]()),
  ]);
  if (coreTexts) {
    i18next.addResourceBundle(language, coreTexts);
    have.add('core');
  }
  missing.forEach((section, index) => {
    i18next.addResourceBundle(language, { [section]: parts[index] });
    have.add(section);
  });
}

/** Loads sections of the dictionary in the language shown (a page's, before it is drawn). */
export async function loadSections(sections: readonly Section[]): Promise<void> {
  for (const section of sections) wanted.add(section);
  await ensureLoaded(currentLanguage(), sections);
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

/**
 * Starts i18next with the core of the dictionary and the given sections (all of them unless told:
 * the console's start names none, its pages load theirs). A key missing from a language is logged as
 * an error (and shown as the key).
 */
export async function initI18n(
  language: Language = initialLanguage(),
  sections: readonly Section[] | 'all' = 'all',
): Promise<Translator> {
  applyDocumentLanguage(language);
  for (const parts of Object.values(loaded)) parts.clear();
  i18next.reset(language);
  await ensureLoaded(language, sections === 'all' ? allSections : sections);
  for (const section of sections === 'all' ? allSections : sections) wanted.add(section);
  return i18next;
}

/** Switches the interface language now and keeps the choice in this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, JSON.stringify(language));
  await ensureLoaded(language, [...wanted]);
  applyDocumentLanguage(language);
  i18next.changeLanguage(language);
  // A page opened while the new language was loading asked for its sections in the old one.
  await ensureLoaded(language, [...wanted]);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

export { i18next };
