import type { Parsed } from './addresses';
import type { RuleOption } from './rule-types';

const OPTION_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Splits the inside of a rule's parentheses into options. A `;` ends an option unless it is
 * escaped (`\;`) or inside a quoted string; a backslash always escapes the character after it,
 * so `\"` does not close a quote and `\\` is one backslash.
 */
export function splitOptions(body: string): Parsed<RuleOption[]> {
  const options: RuleOption[] = [];
  let i = 0;
  const n = body.length;
  while (i < n) {
    while (i < n && /\s/.test(body[i]!)) i++;
    if (i >= n) break;
    let nameEnd = i;
    while (nameEnd < n && body[nameEnd] !== ':' && body[nameEnd] !== ';') nameEnd++;
    const name = body.slice(i, nameEnd).trim();
    if (name === '') {
      return { ok: false, reason: 'there is an empty option (two ";" in a row, or a ":" with no keyword before it)' };
    }
    if (!OPTION_NAME.test(name)) {
      return {
        ok: false,
        reason:
          nameEnd >= n
            ? `the text "${name.slice(0, 60)}" after the last option is not ended with ";"`
            : `"${name.slice(0, 60)}" is not a keyword name`,
      };
    }
    if (nameEnd >= n) return { ok: false, reason: `the option "${name}" is not ended with ";"` };
    if (body[nameEnd] === ';') {
      options.push({ name, value: null });
      i = nameEnd + 1;
      continue;
    }
    let j = nameEnd + 1;
    let quoted = false;
    let ended = false;
    while (j < n) {
      const c = body[j];
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '"') quoted = !quoted;
      else if (c === ';' && !quoted) {
        ended = true;
        break;
      }
      j++;
    }
    const value = body.slice(nameEnd + 1, Math.min(j, n)).trim();
    if (!ended) {
      return {
        ok: false,
        reason: quoted
          ? `the value of "${name}" opens a quoted string that never closes (a quote inside it must be written \\")`
          : `the option "${name}" is not ended with ";"`,
      };
    }
    options.push({ name, value });
    i = j + 1;
  }
  return { ok: true, value: options };
}

/**
 * The text of a possibly quoted value: the surrounding quotes taken off and `\"`, `\;`, `\\`
 * unescaped. Other backslashes stay as written (a pcre keeps its own escapes).
 */
export function unquote(value: string): Parsed<string> {
  let v = value.trim();
  if (v.startsWith('"')) {
    if (v.length < 2 || !v.endsWith('"') || endsWithEscapedQuote(v)) {
      return { ok: false, reason: `the quoted value ${v.slice(0, 60)} does not end with a closing quote` };
    }
    v = v.slice(1, -1);
    if (/(^|[^\\])(\\\\)*"/.test(v)) {
      return { ok: false, reason: `the quoted value ${value.slice(0, 60)} has a quote inside it that is not escaped` };
    }
  }
  return { ok: true, value: v.replace(/\\([";\\])/g, '$1') };
}

/** Whether the last quote of `v` is escaped, counting the backslashes before it. */
function endsWithEscapedQuote(v: string): boolean {
  let k = v.length - 2;
  let slashes = 0;
  while (k >= 0 && v[k] === '\\') {
    slashes++;
    k--;
  }
  return slashes % 2 === 1;
}

/**
 * Decodes a `content` pattern (already without its quotes, escapes still in place) into bytes:
 * `|41 42|` is hexadecimal, `\"`, `\;`, `\\`, `\:` and `\|` are the characters themselves.
 */
export function decodeContent(pattern: string): Parsed<Uint8Array> {
  const bytes: number[] = [];
  let hex = false;
  let digits = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (hex) {
      if (c === '|') {
        if (digits.length % 2 !== 0) {
          return { ok: false, reason: `the hex part "|${digits}|" has an odd number of digits` };
        }
        for (let k = 0; k < digits.length; k += 2) bytes.push(parseInt(digits.slice(k, k + 2), 16));
        digits = '';
        hex = false;
      } else if (/[0-9a-fA-F]/.test(c)) digits += c;
      else if (!/\s/.test(c)) return { ok: false, reason: `"${c}" is not a hex digit inside |…|` };
      continue;
    }
    if (c === '|') {
      hex = true;
      continue;
    }
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !'";\\:|'.includes(next)) {
        return {
          ok: false,
          reason: `"\\${next ?? ''}" is not an escape content allows (only \\" \\; \\\\ \\: \\| — write other bytes as |hex|)`,
        };
      }
      bytes.push(next.charCodeAt(0));
      i++;
      continue;
    }
    const code = c.codePointAt(0)!;
    if (code > 0x7f) {
      for (const b of Buffer.from(String.fromCodePoint(code), 'utf8')) bytes.push(b);
      if (code > 0xffff) i++;
    } else bytes.push(code);
  }
  if (hex) return { ok: false, reason: 'a hex part opened with "|" is never closed' };
  return { ok: true, value: Uint8Array.from(bytes) };
}
