import type { SyntaxColor } from '../theme';

/** The languages of the rule store: Suricata signatures, Sigma rules (YAML) and YARA rules. */
export type RuleLanguage = 'suricata' | 'sigma' | 'yara';

/** One coloured piece of a line; `kind` null is plain text (spaces, words without a role). */
export interface SyntaxToken {
  text: string;
  kind: SyntaxColor | null;
}

/** A rule text as lines of tokens; joining each line's texts gives the line back exactly. */
export type SyntaxLines = SyntaxToken[][];

/** Splits a text into coloured lines in the language's grammar (as far as colouring needs it). */
export function highlightRule(language: RuleLanguage, source: string): SyntaxLines {
  const tokens = language === 'suricata' ? suricataTokens(source) : language === 'yara' ? yaraTokens(source) : [];
  if (language === 'sigma') return source.split(/\r?\n/).map(yamlLine);
  return intoLines(tokens);
}

/** Cuts a token stream at its line breaks (a token may span several lines: a comment, a string). */
function intoLines(tokens: readonly SyntaxToken[]): SyntaxLines {
  const lines: SyntaxLines = [[]];
  for (const token of tokens) {
    const parts = token.text.split(/\r?\n/);
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]!.push({ text: part, kind: token.kind });
    });
  }
  return lines;
}

/** Appends a token, joining it to the last one when both have the same colour. */
function pushToken(tokens: SyntaxToken[], text: string, kind: SyntaxColor | null): void {
  if (text === '') return;
  const last = tokens[tokens.length - 1];
  if (last && last.kind === kind) last.text += text;
  else tokens.push({ text, kind });
}

const SURICATA_ACTIONS = new Set(['alert', 'pass', 'drop', 'reject', 'rejectsrc', 'rejectdst', 'rejectboth', 'config']);

/**
 * A Suricata rules file: `#` comments; the header (action, protocol, addresses, ports, direction); the options
 * in parentheses, each a keyword with an optional value up to an unescaped `;`.
 */
function suricataTokens(source: string): SyntaxToken[] {
  const tokens: SyntaxToken[] = [];
  let at = 0;
  let inOptions = false;
  let expectKeyword = false;
  let headerWord = 0;
  const n = source.length;
  while (at < n) {
    const char = source[at]!;
    if (char === '\n') {
      pushToken(tokens, char, null);
      at++;
      if (!inOptions) headerWord = 0;
      continue;
    }
    if (/\s/.test(char)) {
      const end = scanWhile(source, at, (c) => c !== '\n' && /\s/.test(c));
      pushToken(tokens, source.slice(at, end), null);
      at = end;
      continue;
    }
    if (!inOptions && char === '#' && headerWord === 0) {
      const end = lineEnd(source, at);
      pushToken(tokens, source.slice(at, end), 'comment');
      at = end;
      continue;
    }
    if (char === '\\' && source[at + 1] === '\n') {
      pushToken(tokens, '\\', 'operator');
      at++;
      continue;
    }
    if (!inOptions) {
      if (char === '(') {
        pushToken(tokens, char, 'punctuation');
        inOptions = true;
        expectKeyword = true;
        at++;
        continue;
      }
      if ('[],:'.includes(char)) {
        pushToken(tokens, char, 'punctuation');
        at++;
        continue;
      }
      if (source.startsWith('->', at) || source.startsWith('<>', at) || char === '!') {
        const text = char === '!' ? '!' : source.slice(at, at + 2);
        pushToken(tokens, text, 'operator');
        at += text.length;
        continue;
      }
      const end = scanWhile(source, at, (c) => !/[\s[\],:(]/.test(c) && c !== '!');
      const word = source.slice(at, Math.max(end, at + 1));
      const kind: SyntaxColor | null = word.startsWith('$')
        ? 'variable'
        : headerWord === 0 && SURICATA_ACTIONS.has(word)
          ? 'keyword'
          : headerWord === 1
            ? 'function'
            : /^\d[\d./]*$/.test(word)
              ? 'number'
              : word === 'any'
                ? 'keyword'
                : null;
      pushToken(tokens, word, kind);
      headerWord++;
      at += word.length;
      continue;
    }
    // Inside the options.
    if (char === ')' && expectKeyword) {
      pushToken(tokens, char, 'punctuation');
      inOptions = false;
      headerWord = 0;
      at++;
      continue;
    }
    if (char === ';') {
      pushToken(tokens, char, 'punctuation');
      expectKeyword = true;
      at++;
      continue;
    }
    if (expectKeyword) {
      const end = scanWhile(source, at, (c) => /[\w.-]/.test(c));
      const word = source.slice(at, Math.max(end, at + 1));
      pushToken(tokens, word, 'property');
      at += word.length;
      if (source[at] === ':') {
        pushToken(tokens, ':', 'punctuation');
        at++;
        expectKeyword = false;
      }
      continue;
    }
    if (char === '"') {
      const end = stringEnd(source, at, '"');
      pushToken(tokens, source.slice(at, end), 'string');
      at = end;
      continue;
    }
    if (char === ',' || char === '!') {
      pushToken(tokens, char, char === '!' ? 'operator' : 'punctuation');
      at++;
      continue;
    }
    const end = scanWhile(source, at, (c) => !/[\s;,"!]/.test(c) && c !== '\\');
    const word = source.slice(at, Math.max(end, at + 1));
    pushToken(tokens, word, /^-?\d+$/.test(word) ? 'number' : word.startsWith('$') ? 'variable' : null);
    at += word.length;
  }
  return tokens;
}

const YARA_KEYWORDS = new Set(
  (
    'all and any ascii at base64 base64wide condition contains defined endswith entrypoint false filesize for ' +
    'fullword global icontains iendswith iequals import in include istartswith matches meta nocase none not of or ' +
    'private rule startswith strings them true wide xor'
  ).split(' '),
);

/** A YARA file: C comments, strings, regular expressions and hex strings, `$a`/`#a`/`@a`/`!a` references. */
function yaraTokens(source: string): SyntaxToken[] {
  const tokens: SyntaxToken[] = [];
  const n = source.length;
  let at = 0;
  // What came before, to tell a regular expression (`= /…/`) from a division and a rule's name.
  let previous = '';
  while (at < n) {
    const char = source[at]!;
    if (/\s/.test(char)) {
      const end = scanWhile(source, at, (c) => /\s/.test(c));
      pushToken(tokens, source.slice(at, end), null);
      at = end;
      continue;
    }
    if (source.startsWith('//', at)) {
      const end = lineEnd(source, at);
      pushToken(tokens, source.slice(at, end), 'comment');
      at = end;
      continue;
    }
    if (source.startsWith('/*', at)) {
      const close = source.indexOf('*/', at + 2);
      const end = close < 0 ? n : close + 2;
      pushToken(tokens, source.slice(at, end), 'comment');
      at = end;
      continue;
    }
    if (char === '"') {
      const end = stringEnd(source, at, '"');
      pushToken(tokens, source.slice(at, end), 'string');
      at = end;
      previous = 'string';
      continue;
    }
    if (char === '/' && (previous === '=' || previous === 'matches')) {
      let end = stringEnd(source, at, '/');
      end = scanWhile(source, end, (c) => /[is]/.test(c));
      pushToken(tokens, source.slice(at, end), 'string');
      at = end;
      previous = 'string';
      continue;
    }
    if (char === '{' && previous === '=') {
      const close = source.indexOf('}', at);
      const end = close < 0 ? n : close + 1;
      pushToken(tokens, source.slice(at, end), 'number');
      at = end;
      previous = 'hex';
      continue;
    }
    if ('$#@!'.includes(char) && /[\w*]/.test(source[at + 1] ?? '')) {
      const end = scanWhile(source, at + 1, (c) => /[\w*]/.test(c));
      pushToken(tokens, source.slice(at, end), 'variable');
      at = end;
      previous = 'variable';
      continue;
    }
    if (char === '$') {
      pushToken(tokens, char, 'variable');
      at++;
      previous = 'variable';
      continue;
    }
    if (/\d/.test(char)) {
      const end = scanWhile(source, at, (c) => /[\dA-Fa-fxXKMB.]/.test(c));
      pushToken(tokens, source.slice(at, end), 'number');
      at = end;
      previous = 'number';
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const end = scanWhile(source, at, (c) => /\w/.test(c));
      const word = source.slice(at, end);
      const kind: SyntaxColor | null = YARA_KEYWORDS.has(word)
        ? 'keyword'
        : previous === 'rule' || source[scanWhile(source, end, (c) => c === ' ')] === '('
          ? 'function'
          : previous === ':' && /^(meta|strings|condition)$/.test(word)
            ? 'keyword'
            : source[scanWhile(source, end, (c) => c === ' ' || c === '\t')] === '='
              ? 'property'
              : null;
      pushToken(tokens, word, kind);
      at = end;
      previous = word;
      continue;
    }
    const operator = /^(==|!=|<=|>=|<<|>>|\.\.|[=<>+\-*\\%&|^~])/.exec(source.slice(at, at + 2));
    if (operator) {
      pushToken(tokens, operator[0], 'operator');
      at += operator[0].length;
      previous = operator[0];
      continue;
    }
    pushToken(tokens, char, 'punctuation');
    at++;
    previous = char;
  }
  return tokens;
}

const SIGMA_CONDITION_WORDS = /^(and|or|not|of|all|them|\d+|1)$/;

/** One line of a Sigma rule (YAML): comments, keys with their `|modifiers`, list dashes, scalars. */
function yamlLine(line: string): SyntaxToken[] {
  const tokens: SyntaxToken[] = [];
  const indent = /^\s*/.exec(line)![0];
  pushToken(tokens, indent, null);
  let rest = line.slice(indent.length);
  if (rest.startsWith('#')) {
    pushToken(tokens, rest, 'comment');
    return tokens;
  }
  while (rest.startsWith('- ') || rest === '-') {
    pushToken(tokens, '-', 'punctuation');
    const spaces = /^-(\s*)/.exec(rest)![1]!;
    pushToken(tokens, spaces, null);
    rest = rest.slice(1 + spaces.length);
  }
  const key = /^([^\s:#'"|][^:#]*?|'[^']*'|"[^"]*")(\|[\w|]+)?:(?=\s|$)/.exec(rest);
  let isCondition = false;
  if (key) {
    pushToken(tokens, key[1]!, 'property');
    if (key[2]) pushToken(tokens, key[2], 'function');
    pushToken(tokens, ':', 'punctuation');
    isCondition = key[1] === 'condition';
    rest = rest.slice(key[0].length);
  }
  yamlValue(tokens, rest, isCondition);
  return tokens;
}

/** A YAML value after its key (or a list item): a quoted or plain scalar, a flow list, a block marker. */
function yamlValue(tokens: SyntaxToken[], text: string, isCondition: boolean): void {
  const lead = /^\s*/.exec(text)![0];
  pushToken(tokens, lead, null);
  let value = text.slice(lead.length);
  const comment = plainComment(value);
  const tail = comment >= 0 ? value.slice(comment) : '';
  if (comment >= 0) value = value.slice(0, comment);
  const trimmed = value.trimEnd();
  const trailing = value.slice(trimmed.length);
  if (trimmed === '') {
    // nothing
  } else if (/^[|>][-+]?\d*$/.test(trimmed)) {
    pushToken(tokens, trimmed, 'operator');
  } else if (/^['"]/.test(trimmed)) {
    pushToken(tokens, trimmed, 'string');
  } else if (/^(true|false|null|~|yes|no)$/i.test(trimmed)) {
    pushToken(tokens, trimmed, 'keyword');
  } else if (/^-?\d+(\.\d+)?$/.test(trimmed)) {
    pushToken(tokens, trimmed, 'number');
  } else if (/^[[{]/.test(trimmed)) {
    for (const piece of trimmed.split(/([[\]{},])/)) {
      if (piece === '') continue;
      pushToken(tokens, piece, /^[[\]{},]$/.test(piece) ? 'punctuation' : piece.trim() === '' ? null : 'string');
    }
  } else if (isCondition) {
    for (const piece of trimmed.split(/(\s+|[()|])/)) {
      if (piece === '') continue;
      const kind: SyntaxColor | null = SIGMA_CONDITION_WORDS.test(piece)
        ? 'keyword'
        : /^[()|]$/.test(piece)
          ? 'operator'
          : /^\s+$/.test(piece)
            ? null
            : 'variable';
      pushToken(tokens, piece, kind);
    }
  } else {
    pushToken(tokens, trimmed, 'string');
  }
  pushToken(tokens, trailing, null);
  pushToken(tokens, tail, 'comment');
}

/** Where a `#` comment starts in a plain YAML value (after a space, outside quotes); -1 when none. */
function plainComment(value: string): number {
  let quote: string | null = null;
  for (let at = 0; at < value.length; at++) {
    const char = value[at]!;
    if (quote) {
      if (char === quote) quote = null;
    } else if ((char === '"' || char === "'") && (at === 0 || /[\s[,{]/.test(value[at - 1]!))) {
      quote = char;
    } else if (char === '#' && (at === 0 || /\s/.test(value[at - 1]!))) {
      return at;
    }
  }
  return -1;
}

function scanWhile(source: string, from: number, test: (char: string) => boolean): number {
  let at = from;
  while (at < source.length && test(source[at]!)) at++;
  return at;
}

function lineEnd(source: string, from: number): number {
  const end = source.indexOf('\n', from);
  return end < 0 ? source.length : end;
}

/** The end (after the closing quote) of a quoted text with backslash escapes; the line's end when unclosed. */
function stringEnd(source: string, from: number, quote: string): number {
  let at = from + 1;
  while (at < source.length) {
    const char = source[at]!;
    if (char === '\\') at += 2;
    else if (char === quote) return at + 1;
    else if (char === '\n') return at;
    else at++;
  }
  return source.length;
}
