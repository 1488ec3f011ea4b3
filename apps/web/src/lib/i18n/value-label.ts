import { i18next } from './i18n';

/** A code that can name a dictionary key: letters, digits, `_` and `-` (no key or namespace separators). */
const codePattern = /^[\w-]+$/;

/**
 * The name, in the interface language, of a code the server passes on from a sensor or the audit log
 * (a status, a reason, an action): the entry `<group>.<code>` of the dictionary when there is one,
 * else the code as it came — a code the console does not know yet is shown, never hidden. Reads the
 * current language when called: callers that memoise rows depend on the language.
 */
export function valueLabel(group: string, code: string): string {
  if (!codePattern.test(code)) return code;
  const key = `${group}.${code}`;
  // The key is built at run time; i18next's typed keys cannot name it.
  return i18next.exists(key) ? i18next.t(key as never) : code;
}
