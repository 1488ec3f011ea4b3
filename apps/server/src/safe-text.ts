/*
 * Text a client sent, on its way to the database or into a message. PostgreSQL's text cannot hold
 * U+0000 and its JSON types refuse an unpaired UTF-16 surrogate (`"\ud800"`), so such text is
 * refused where it enters (http/endpoints.ts, the ingest parsers); and a message or a log line that
 * quotes client text quotes it through `printable` or `loggable`, never raw.
 */

/** An unpaired UTF-16 surrogate: with the `u` flag a pair is one code point, so only lone halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string cannot be stored as text, or null when it can. */
export function unstorableText(text: string): 'nul' | 'surrogate' | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return null;
}

/**
 * What a message must not carry raw: control characters (NUL included), unpaired surrogates, line
 * and paragraph separators, the byte order mark and the invisible marks that reorder text.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

function escapeCodeUnit(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Client text as a message may quote it: unprintable characters written out as `\x00` / `\u2028`,
 * cut to `max` characters with `…` when longer. The result is safe to store and to show.
 */
export function printable(text: string, max = 200): string {
  let cut = text.length > max ? text.slice(0, max) : text;
  // A cut between the halves of a pair would leave half a character.
  if (cut.length < text.length && /[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const shown = cut.replace(UNPRINTABLE, escapeCodeUnit);
  return cut.length < text.length ? `${shown}…` : shown;
}

/** Text for a log line: NUL and unpaired surrogates written out, line breaks kept. */
export function loggable(text: string): string {
  return text.replace(/[\0\p{Cs}]/gu, escapeCodeUnit);
}

/** A short description of what makes text unstorable, for a field error. */
export const UNSTORABLE_TEXT_MESSAGES: Record<'nul' | 'surrogate', string> = {
  nul: 'This text holds a NUL character (U+0000), which cannot be stored. Remove it and send the text again.',
  surrogate:
    'This text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff alone), which is not a character. Send valid Unicode text.',
};

/** A step of the walk: the key under its parent, kept as a chain so paths are only built for errors. */
interface PathLink {
  key: string;
  parent: PathLink | null;
}

/** Deepest path named in full; a deeper one is named by its first keys and `…`. */
const MAX_PATH_KEYS = 32;

function pathOf(link: PathLink | null): string {
  const keys: string[] = [];
  for (let at = link; at !== null; at = at.parent) keys.push(at.key);
  keys.reverse();
  const named = keys.slice(0, MAX_PATH_KEYS).map((key) => printable(key, 100));
  return keys.length > MAX_PATH_KEYS ? `${named.join('.')}.…` : named.join('.');
}

/** An object of keys and values, as JSON.parse and query-string parsers make them (not bytes). */
function isKeyedObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !(value instanceof Date);
}

/** Most fields named in one answer; a body with more unstorable strings is refused all the same. */
const MAX_FIELDS_NAMED = 20;

/**
 * Field errors for every key or string value of parsed JSON (or a parsed query string) that cannot
 * be stored, at any depth, by path as the caller wrote it (`search`, `filters.name`, `ids.3`); null
 * when there is none. Walks without recursion, so no nesting can exhaust the stack; bytes (a raw
 * body) are left to the route that reads them.
 */
export function unstorableTextErrors(value: unknown): Record<string, string[]> | null {
  let errors: Record<string, string[]> | null = null;
  let named = 0;
  const note = (link: PathLink | null, problem: 'nul' | 'surrogate'): void => {
    errors ??= {};
    const name = link === null ? 'non_field_errors' : pathOf(link);
    const messages = (errors[name] ??= []);
    if (messages.length === 0) named++;
    if (!messages.includes(UNSTORABLE_TEXT_MESSAGES[problem])) messages.push(UNSTORABLE_TEXT_MESSAGES[problem]);
  };
  const stack: { node: unknown; link: PathLink | null }[] = [{ node: value, link: null }];
  while (stack.length > 0 && named < MAX_FIELDS_NAMED) {
    const { node, link } = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unstorableText(node);
      if (problem !== null) note(link, problem);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], link: { key: String(i), parent: link } });
    } else if (isKeyedObject(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: PathLink = { key, parent: link };
        const problem = unstorableText(key);
        if (problem !== null) note(child, problem);
        stack.push({ node: node[key], link: child });
      }
    }
  }
  return errors;
}
