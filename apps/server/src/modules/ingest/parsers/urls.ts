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

/** Attributes whose value is a URL a browser follows, loads or submits to. */
const URL_ATTRIBUTE =
  /\s(href|src|action|formaction|data|background|poster|cite|xlink:href|srcset|content|http-equiv)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+))/gi;
/** An opening tag with attributes. */
const TAG = /<([a-z][a-z0-9:-]*)\s[^>]*>/gi;
const REFRESH_URL = /^\s*[\d.]*\s*[;,]?\s*url\s*=\s*(['"]?)(.*?)\1\s*$/i;
const BASE_HREF = /<base\b[^>]*\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+))/i;

/** URLs collected from several bodies and files: normalised, deduplicated, first sighting first, at most `max`. */
export class UrlCollector {
  private readonly found = new Set<string>();
  private readonly max: number;

  constructor(options: UrlOptions = {}) {
    this.max = options.maxUrls ?? 1000;
  }

  get urls(): string[] {
    return [...this.found];
  }

  /** One candidate URL, kept when it is an http, https or ftp URL. */
  add(candidate: string): void {
    if (this.found.size >= this.max) return;
    const url = normaliseUrl(trimCandidate(candidate));
    if (url !== null) this.found.add(url);
  }

  /** `http(s)://` and `ftp://` anywhere (after decoding character references), and `www.` names as http. */
  text(body: string | null): this {
    if (body === null || body === '') return this;
    const source = body.includes('&') ? decodeEntities(body) : body;
    for (const match of source.matchAll(WITH_SCHEME)) this.add(match[0]);
    for (const match of source.matchAll(BARE_WWW)) this.add(`http://${match[0]}`);
    return this;
  }

  /**
   * Everything `text` finds, then what a browser would follow that carries no scheme of its own:
   * link, source and form targets written protocol-relative (`//host/…`) or relative to a
   * `<base href>`, and `<meta http-equiv="refresh">` targets. Other relative targets name files
   * beside the page and are left out.
   */
  html(body: string | null): this {
    if (body === null || body === '') return this;
    this.text(body);
    const baseMatch = BASE_HREF.exec(body);
    const base = baseMatch ? absolute(attributeValue(baseMatch, 1), null) : null;
    const follow = (value: string) => {
      const url = absolute(value, base);
      if (url !== null) this.add(url);
    };
    for (const tag of body.matchAll(TAG)) {
      const attributes = new Map<string, string>();
      for (const match of tag[0].matchAll(URL_ATTRIBUTE)) {
        const name = match[1]!.toLowerCase();
        if (!attributes.has(name)) attributes.set(name, attributeValue(match));
      }
      for (const [name, value] of attributes) {
        if (name === 'content' || name === 'http-equiv') continue;
        // srcset: `url 1x, url 2x`.
        if (name === 'srcset') for (const part of value.split(',')) follow(part.trim().split(/\s+/)[0] ?? '');
        else follow(value);
      }
      // `<meta http-equiv="refresh" content="0; url=…">`, attributes in either order.
      if (tag[1]!.toLowerCase() === 'meta' && attributes.get('http-equiv')?.trim().toLowerCase() === 'refresh') {
        const target = REFRESH_URL.exec(attributes.get('content') ?? '');
        if (target?.[2]) follow(target[2]);
      }
    }
    return this;
  }
}

/** The value of a quoted or bare attribute match, character references decoded. */
function attributeValue(match: RegExpMatchArray | RegExpExecArray, first = 2): string {
  const raw = match[first] ?? match[first + 1] ?? match[first + 2] ?? '';
  return raw.includes('&') ? decodeEntities(raw) : raw;
}

/** An attribute's target as an absolute URL: with its own scheme, protocol-relative (as https), or against the base. */
function absolute(value: string, base: string | null): string | null {
  const target = value.trim();
  if (target === '' || target.startsWith('#')) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return target;
  if (target.startsWith('//')) return `https:${target}`;
  if (base === null) return null;
  try {
    return new URL(target, base).href;
  } catch {
    return null;
  }
}

/**
 * URLs in text and HTML bodies: `http(s)://` and `ftp://` anywhere (attributes included, after
 * decoding character references), and `www.` names in text as http. Normalised, deduplicated,
 * in order of first sighting.
 */
export function extractUrls(bodies: readonly (string | null)[], options: UrlOptions = {}): string[] {
  const collector = new UrlCollector(options);
  for (const body of bodies) collector.text(body);
  return collector.urls;
}
