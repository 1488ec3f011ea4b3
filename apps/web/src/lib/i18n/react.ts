import { useMemo, useSyncExternalStore } from 'react';
import { i18next, type TFunction, type TranslationValues } from './translator';

const subscribe = (listener: () => void) => i18next.subscribe(listener);
const version = () => i18next.version;

/**
 * The translator for a component: `t` and the language shown. The component draws again when the
 * language or the texts change, and `t` is a new function then, so memoised texts follow.
 */
export function useTranslation(): { t: TFunction; i18n: { language: string } } {
  const revision = useSyncExternalStore(subscribe, version, version);
  return useMemo(() => {
    const t = ((key: string, options?: string | TranslationValues) => i18next.translate(key, options)) as TFunction;
    return { t, i18n: { language: i18next.language } };
    // A new revision is a new language or new texts: `t` is made anew so that memoised texts follow.
  }, [revision]);
}
