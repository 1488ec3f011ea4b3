import { MAX_EVENT_STRING } from '@vigil/contract';

const SCHEMES = new Set(['http:', 'https:', 'ftp:']);
const WITH_SCHEME = /\b(?:https?|ftp):\/\/[^\s<>"'`{}|\\^[\]]+/gi;
const BARE_WWW = /(?<![\w/.@-])www\.[^\s<>"'`{}|\\^[\]]+/gi;
const TRAILING = /[.,;:!?'"*~]+$/;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the HTML character references that hide URLs in attributes (`&amp;`, `&#x2F;`, `&#47;`). */
function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});?/gi, (match, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? match;
  });
}

/** Drops punctuation that ends a sentence rather than the URL, and a `)` that closes text around it. */
function trimCandidate(candidate: string): string {
  let url = candidate.replace(TRAILING, '');
  while (url.endsWith(')') && (url.match(/\(/g) ?? []).length < (url.match(/\)/g) ?? []).length) {
    url = url.slice(0, -1).replace(TRAILING, '');
  }
  return url;
}

/** The WHATWG form of an http, https or ftp URL (scheme and host lower case, IDN as punycode), or null. */
export function normaliseUrl(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (!SCHEMES.has(url.protocol) || url.hostname === '') return null;
  return url.href.length > MAX_EVENT_STRING ? null : url.href;
}

export interface UrlOptions {
  /** At most this many URLs are kept (first sightings first). */
  maxUrls?: number;
}

/**
 * URLs in text and HTML bodies: `http(s)://` and `ftp://` anywhere (attributes included, after
 * decoding character references), and `www.` names in text as http. Normalised, deduplicated,
 * in order of first sighting.
 */
export function extractUrls(bodies: readonly (string | null)[], options: UrlOptions = {}): string[] {
  const max = options.maxUrls ?? 1000;
  const found = new Set<string>();
  const add = (candidate: string) => {
    if (found.size >= max) return;
    const url = normaliseUrl(trimCandidate(candidate));
    if (url !== null) found.add(url);
  };
  for (const body of bodies) {
    if (body === null || body === '') continue;
    const source = body.includes('&') ? decodeEntities(body) : body;
    for (const match of source.matchAll(WITH_SCHEME)) add(match[0]);
    for (const match of source.matchAll(BARE_WWW)) add(`http://${match[0]}`);
  }
  return [...found];
}
