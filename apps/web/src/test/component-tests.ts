import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n, type Language } from '../lib/i18n';

/**
 * Sets up the tests of a file that renders components: the texts of `language` loaded before the
 * first, what a test rendered removed after it.
 */
export function setUpComponentTests(language: Language = 'en'): void {
  beforeAll(async () => {
    await initI18n(language);
  });
  afterEach(cleanup);
}
