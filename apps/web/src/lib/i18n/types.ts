import type { en } from './locales/en';

/** Every language has exactly the keys of English, each a string. */
export type Translation<T = typeof en> = {
  readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]>;
};
