/**
 * camelCase ⇄ snake_case at the edge of the HTTP client: the API speaks snake_case, the
 * console camelCase. The types follow the values: `Camelize<Wire>` is what a call answers when the
 * server sends `Wire` (a type inferred from a zod schema of `@vigil/contract`).
 */

/**
 * Keys whose value is a map keyed by data, not by field names (an audit record's changed fields, a
 * user's privileged flags, an event's record as it arrived, a rule's metadata): the key itself is
 * converted, the keys inside it are kept as they are.
 */
const verbatimKeys = new Set(['changes', 'privileged_settings', 'privilegedSettings', 'raw', 'metadata']);
type VerbatimKey = 'changes' | 'privileged_settings' | 'privilegedSettings' | 'raw' | 'metadata';

export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? Head extends Lowercase<Head>
    ? `${Head}${SnakeCase<Tail>}`
    : `_${Lowercase<Head>}${SnakeCase<Tail>}`
  : S;

type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date | ((...args: never[]) => unknown);

/** The camelCase shape of a snake_case answer type. */
export type Camelize<T> = T extends Leaf
  ? T
  : T extends readonly (infer Item)[]
    ? Camelize<Item>[]
    : { [K in keyof T as K extends string ? CamelCase<K> : K]: K extends VerbatimKey ? T[K] : Camelize<T[K]> };

/** The snake_case shape of a camelCase payload type. */
export type Snakeize<T> = T extends Leaf
  ? T
  : T extends readonly (infer Item)[]
    ? Snakeize<Item>[]
    : { [K in keyof T as K extends string ? SnakeCase<K> : K]: K extends VerbatimKey ? T[K] : Snakeize<T[K]> };

export function toCamelCase(key: string): string {
  return key.replace(/_+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

export function toSnakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[convert(key)] = verbatimKeys.has(key) ? item : convertKeys(item, convert);
  }
  return result;
}

/** Deeply converts an answer's keys to camelCase (arrays and nested objects too). */
export function camelizeKeys<T>(value: T): Camelize<T> {
  return convertKeys(value, toCamelCase) as Camelize<T>;
}

/** Deeply converts a payload's keys to snake_case. */
export function snakeizeKeys<T>(value: T): Snakeize<T> {
  return convertKeys(value, toSnakeCase) as Snakeize<T>;
}
