import type { en } from './locales/en';

/**
 * The console's translator: dictionaries by language, the language shown, and `t`. The dictionaries
 * have no plurals, contexts or formats, only `{{name}}` placeholders, so this is all a general
 * translation library would do for them, without its weight on every screen.
 */

type Dictionary = typeof en;

/** Every key of a text: `'alerts.queue.title'`. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of a group of texts: `'roles.actions'`. */
type Groups<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? never : `${Prefix}${K}` | Groups<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type TranslationKey = Leaves<Dictionary>;
export type TranslationGroup = Groups<Dictionary>;

/** Values of a text's `{{name}}` placeholders. */
export type TranslationValues = Readonly<Record<string, unknown>>;

export interface TFunction {
  (key: TranslationKey, values?: TranslationValues): string;
  /** With the text to show when the dictionary has none (a code the console does not know yet). */
  (key: TranslationKey, fallback: string): string;
  (key: TranslationGroup, options: { returnObjects: true }): Record<string, unknown>;
}

type Tree = { [key: string]: string | Tree };

const placeholder = /\{\{\s*([\w.]+)\s*\}\}/g;

function lookup(tree: Tree | undefined, key: string): string | Tree | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return node;
}

function merge(into: Tree, from: Tree): void {
  for (const [key, value] of Object.entries(from)) {
    const current = into[key];
    if (typeof value !== 'string' && current !== undefined && typeof current !== 'string') merge(current, value);
    else into[key] = typeof value === 'string' ? value : structuredClone(value);
  }
}

export class Translator {
  private readonly dictionaries = new Map<string, Tree>();
  private readonly listeners = new Set<() => void>();
  private current = 'en';
  private revision = 0;

  get language(): string {
    return this.current;
  }

  /** Changes with every change of language or texts: what a component re-renders on. */
  get version(): number {
    return this.revision;
  }

  /** Forgets every text and shows `language` (start-up, and tests). */
  reset(language: string): void {
    this.dictionaries.clear();
    this.current = language;
    this.changed();
  }

  /** Adds texts to a language, merged into what it has (a section at a time). */
  addResourceBundle(language: string, texts: object): void {
    let tree = this.dictionaries.get(language);
    if (!tree) {
      tree = {};
      this.dictionaries.set(language, tree);
    }
    merge(tree, texts as Tree);
    // No re-render: a page's sections arrive before the page is drawn.
  }

  hasLanguage(language: string): boolean {
    return this.dictionaries.has(language);
  }

  changeLanguage(language: string): void {
    this.current = language;
    this.changed();
  }

  /** Whether the language shown has a text (not a group) under a key. */
  exists(key: string): boolean {
    return typeof lookup(this.dictionaries.get(this.current), key) === 'string';
  }

  /**
   * The text of a key in the language shown, its placeholders filled; the key itself (and an error
   * in the console) when there is none. With `returnObjects`, the group of texts under a key.
   */
  translate(
    key: string,
    options?: string | (TranslationValues & { returnObjects?: boolean }),
  ): string | Record<string, unknown> {
    const found = lookup(this.dictionaries.get(this.current), key);
    if (typeof options === 'string') return typeof found === 'string' ? found : options;
    const values = options;
    if (values?.returnObjects && found !== undefined && typeof found !== 'string') return found;
    if (typeof found !== 'string') {
      console.error(`Missing translation "${key}" (${this.current})`);
      return key;
    }
    if (!values) return found;
    return found.replace(placeholder, (whole, name: string) => {
      const value = values[name];
      return value === undefined || value === null ? whole : String(value);
    });
  }

  /** `translate` with the dictionary's keys as its type. */
  readonly t: TFunction = ((key: string, options?: string | TranslationValues) =>
    this.translate(key, options)) as TFunction;

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.revision += 1;
    this.listeners.forEach((listener) => listener());
  }
}

/** The console's one translator. */
export const i18next = new Translator();
