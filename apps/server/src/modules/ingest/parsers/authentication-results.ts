import type { AuthenticationHeader, AuthenticationResult } from '@vigil/contract';

/*
 * Authentication-Results headers (RFC 8601), read leniently: the authserv-id may be missing (the
 * form Microsoft 365 writes: `spf=pass (…) smtp.mailfrom=…; dkim=none …`), `=` may have spaces
 * around it, values may be quoted, comments may sit anywhere (and hold `;`), and a property value
 * may itself hold `=` (SRS addresses).
 */

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'quoted'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'semicolon' };

/** Splits a header value into words, quoted strings, comments (nested, with escapes) and `;`. */
function tokenize(value: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
    } else if (c === ';') {
      tokens.push({ kind: 'semicolon' });
      i++;
    } else if (c === '(') {
      let depth = 1;
      let text = '';
      i++;
      while (i < value.length && depth > 0) {
        const d = value[i]!;
        if (d === '\\' && i + 1 < value.length) {
          text += value[i + 1];
          i += 2;
          continue;
        }
        if (d === '(') depth++;
        else if (d === ')') depth--;
        if (depth > 0) text += d;
        i++;
      }
      tokens.push({ kind: 'comment', text: text.replace(/\s+/g, ' ').trim() });
    } else if (c === '"') {
      let text = '';
      i++;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === '\\' && i + 1 < value.length) i++;
        text += value[i];
        i++;
      }
      i++;
      tokens.push({ kind: 'quoted', text });
    } else {
      let text = '';
      while (i < value.length && !' \t\r\n;("'.includes(value[i]!)) text += value[i++];
      tokens.push({ kind: 'word', text });
    }
  }
  return tokens;
}

type Element =
  { kind: 'pair'; key: string; value: string } | { kind: 'word'; text: string } | { kind: 'comment'; text: string };

/** Joins `key=value`, `key = value`, `key="quoted value"` into pairs; a value keeps any `=` after the first. */
function elements(tokens: readonly Token[]): Element[] {
  const out: Element[] = [];
  const valueAt = (index: number): string | null => {
    const next = tokens[index];
    return next?.kind === 'word' || next?.kind === 'quoted' ? next.text : null;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'semicolon') continue;
    if (token.kind === 'comment') {
      out.push({ kind: 'comment', text: token.text });
      continue;
    }
    if (token.kind === 'quoted') {
      out.push({ kind: 'word', text: token.text });
      continue;
    }
    const text = token.text;
    const eq = text.indexOf('=');
    if (eq > 0 && eq < text.length - 1) {
      out.push({ kind: 'pair', key: text.slice(0, eq), value: text.slice(eq + 1) });
    } else if (eq > 0) {
      // `key=` then the value as the next token (`reason="…"`, `spf= pass`).
      const value = valueAt(i + 1);
      out.push({ kind: 'pair', key: text.slice(0, eq), value: value ?? '' });
      if (value !== null) i++;
    } else if (eq < 0 && tokens[i + 1]?.kind === 'word' && (tokens[i + 1] as { text: string }).text.startsWith('=')) {
      // `key =value` or `key = value`.
      const after = (tokens[i + 1] as { text: string }).text.slice(1);
      if (after !== '') {
        out.push({ kind: 'pair', key: text, value: after });
        i++;
      } else {
        const value = valueAt(i + 2);
        out.push({ kind: 'pair', key: text, value: value ?? '' });
        i += value === null ? 1 : 2;
      }
    } else {
      out.push({ kind: 'word', text });
    }
  }
  return out;
}

/** Splits the tokens at each `;` (those inside comments and quotes are already inside their tokens). */
function segments(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'semicolon') out.push([]);
    else out[out.length - 1]!.push(token);
  }
  return out;
}

const RESULT = /^[a-z0-9][a-z0-9_-]*/i;

/** One `method=result [reason] [ptype.property=value …]`, or null when the elements are not one. */
function resultOf(items: readonly Element[]): AuthenticationResult | null {
  const first = items.findIndex((item) => item.kind !== 'comment');
  const head = items[first];
  if (head?.kind !== 'pair') return null;
  const method = head.key
    .replace(/\s*\/.*$/, '')
    .trim()
    .toLowerCase();
  const result = RESULT.exec(head.value)?.[0]?.toLowerCase();
  if (method === '' || !/^[a-z0-9][a-z0-9_-]*$/.test(method) || result === undefined) return null;
  let reason: string | null = null;
  let comment: string | null = null;
  const properties: Record<string, string> = {};
  for (const item of items.slice(first + 1)) {
    if (item.kind === 'comment') comment ??= item.text || null;
    else if (item.kind === 'pair') {
      const key = item.key.trim().toLowerCase();
      if (key === 'reason') reason = item.value;
      else if (key !== '' && !Object.hasOwn(properties, key)) properties[key] = item.value;
    }
  }
  return { method, result: result.slice(0, 32), reason: reason ?? comment, properties };
}

/** Parses one Authentication-Results header value (unfolded) into its server and checks. Never throws. */
export function parseAuthenticationHeader(header: string): AuthenticationHeader {
  const parts = segments(tokenize(header)).map(elements);
  let authservId: string | null = null;
  const results: AuthenticationResult[] = [];
  parts.forEach((items, index) => {
    if (index === 0) {
      const first = items.find((item) => item.kind !== 'comment');
      if (first === undefined || first.kind === 'pair') {
        // No authserv-id: the header starts with its first check (Microsoft 365).
        const result = resultOf(items);
        if (result) results.push(result);
        return;
      }
      authservId = first.text.slice(0, 255) || null;
      // Lenient: a check on the same segment as the server (`mx.example.net spf=pass …`, no `;`).
      const rest = items.slice(items.indexOf(first) + 1);
      const pairAt = rest.findIndex((item) => item.kind === 'pair');
      if (pairAt >= 0) {
        const result = resultOf(rest.slice(pairAt));
        if (result) results.push(result);
      }
      return;
    }
    const result = resultOf(items);
    if (result) results.push(result);
  });
  return { authserv_id: authservId, results, header };
}

/** The methods a message's summary gives. */
export const SUMMARY_METHODS = ['spf', 'dkim', 'dmarc', 'arc', 'compauth'] as const;
export type AuthenticationSummary = Record<(typeof SUMMARY_METHODS)[number], string | null>;

/**
 * Each method's result as the receiving server gave it, from the parsed headers (topmost first):
 * the receiving server's headers are the first one and those right below it with the same
 * authserv-id (absent ids count as the same), so a server that writes one header per method is read
 * whole, while a header further down (an earlier hop, or one the sender wrote) is not trusted for
 * the summary. The first result of a method wins, except that a passing DKIM signature wins over
 * others. SPF falls back to the first word of Received-SPF.
 */
export function summariseAuthentication(
  headers: readonly AuthenticationHeader[],
  receivedSpf: string | null = null,
): AuthenticationSummary {
  const summary: AuthenticationSummary = { spf: null, dkim: null, dmarc: null, arc: null, compauth: null };
  const top = headers[0];
  if (top !== undefined) {
    const id = top.authserv_id?.toLowerCase() ?? null;
    for (const header of headers) {
      if ((header.authserv_id?.toLowerCase() ?? null) !== id) break;
      for (const { method, result } of header.results) {
        if (!(SUMMARY_METHODS as readonly string[]).includes(method)) continue;
        const key = method as keyof AuthenticationSummary;
        if (summary[key] === null || (key === 'dkim' && result === 'pass')) summary[key] = result;
      }
    }
  }
  if (summary.spf === null && receivedSpf !== null) {
    summary.spf = /^[a-z]+/i.exec(receivedSpf.trim())?.[0]?.toLowerCase() ?? null;
  }
  return summary;
}
