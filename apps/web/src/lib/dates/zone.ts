/**
 * The time zone and language dates are shown in. Kept apart from the formatting, so the
 * reduced application, which shows no dates, does not download it.
 */

let zone: string = browserTimeZone();
let language = 'en';

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function isValidTimeZone(name: string): boolean {
  if (name.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the zone dates are shown in: the user's `timeZone`, or the browser's when it is null.
 * An unknown zone name is refused.
 */
export function setTimeZone(name: string | null | undefined): void {
  if (name === null || name === undefined) {
    zone = browserTimeZone();
    return;
  }
  if (!isValidTimeZone(name)) throw new Error(`Attempt to set invalid timeZone ${name}`);
  zone = name;
}

export function getTimeZone(): string {
  return zone;
}

/** Month names and the first day of the week follow the interface language. */
export function setDateLanguage(next: string): void {
  language = next;
}

export function getDateLanguage(): string {
  return language;
}

/** 0 = Sunday, 1 = Monday: Russian weeks start on Monday. */
export function firstDayOfWeek(lang: string = language): 0 | 1 {
  return lang === 'ru' ? 1 : 0;
}
