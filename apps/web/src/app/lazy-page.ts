import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadSections, type Section } from '../lib/i18n';

/**
 * A page loaded on demand together with the dictionary sections it shows, in parallel, so that it
 * is drawn with its texts and no screen downloads texts of pages it is not. `sections.test.ts`
 * checks the list against the keys the page's code can show.
 */
export function lazyPage(
  load: () => Promise<{ default: ComponentType }>,
  sections: readonly Section[],
): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadSections(sections)]);
    return module;
  });
}
