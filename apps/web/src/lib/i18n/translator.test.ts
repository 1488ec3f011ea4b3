import { afterEach, describe, expect, it, vi } from 'vitest';
import { Translator } from './translator';

const texts = {
  common: { close: 'Close', greeting: 'Hello, {{name}}: {{ count }} new' },
  roles: { actions: { view: 'View', change: 'Change' } },
};

describe('translator', () => {
  afterEach(() => vi.restoreAllMocks());

  it('finds texts by key and fills their placeholders', () => {
    const translator = new Translator();
    translator.reset('en');
    translator.addResourceBundle('en', texts);
    expect(translator.t('common.close')).toBe('Close');
    expect(translator.translate('common.greeting', { name: 'Ann', count: 0 })).toBe('Hello, Ann: 0 new');
    // A value not given leaves its placeholder, so a missing value is seen, not hidden.
    expect(translator.translate('common.greeting', { name: 'Ann' })).toBe('Hello, Ann: {{ count }} new');
    expect(translator.translate('common.greeting', { name: '{{count}}', count: 2 })).toBe('Hello, {{count}}: 2 new');
  });

  it('merges sections into a language and switches languages', () => {
    const translator = new Translator();
    translator.reset('en');
    translator.addResourceBundle('en', { common: { close: 'Close' } });
    translator.addResourceBundle('en', { common: { open: 'Open' }, roles: texts.roles });
    translator.addResourceBundle('ru', { common: { close: 'Закрыть' } });
    expect(translator.translate('common.open')).toBe('Open');
    expect(translator.translate('common.close')).toBe('Close');
    const seen: string[] = [];
    translator.subscribe(() => seen.push(translator.language));
    const before = translator.version;
    translator.changeLanguage('ru');
    expect(seen).toEqual(['ru']);
    expect(translator.version).toBeGreaterThan(before);
    expect(translator.translate('common.close')).toBe('Закрыть');
    expect(translator.exists('common.close')).toBe(true);
    expect(translator.exists('common.open')).toBe(false);
  });

  it('answers a missing key with the key and an error, or with the fallback it is given', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const translator = new Translator();
    translator.reset('en');
    translator.addResourceBundle('en', texts);
    expect(translator.translate('common.nothing')).toBe('common.nothing');
    expect(error).toHaveBeenCalledWith('Missing translation "common.nothing" (en)');
    expect(translator.translate('common.nothing', 'raw_code')).toBe('raw_code');
    expect(translator.translate('roles.actions')).toBe('roles.actions');
    expect(translator.exists('roles.actions')).toBe(false);
  });

  it('gives a group of texts when asked for objects', () => {
    const translator = new Translator();
    translator.reset('en');
    translator.addResourceBundle('en', texts);
    expect(translator.translate('roles.actions', { returnObjects: true })).toEqual({ view: 'View', change: 'Change' });
  });
});
