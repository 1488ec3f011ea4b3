/**
 * The search query language's parser (docs/query-language.md): query text to the syntax tree of ast.ts,
 * or the first problem found, at its place. It never throws: every input either parses or gives a
 * problem, and nesting and size are bounded so a hostile query cannot exhaust the stack or the server.
 *
 * The parser reads characters directly rather than a token stream, because what a character means
 * depends on where it stands: in `src_ip: 2001:db8::1` the first colon separates the field and the
 * others belong to the address.
 */
import type { CompareOp, FieldRef, QueryNode, QueryProblem, QueryProblemCode, Term, TermPart, ValueExpr } from './ast';

/** Deepest nesting of parentheses and `not`s accepted. */
export const MAX_QUERY_DEPTH = 64;
/** Most terms (values and free-text words) one query may hold. */
export const MAX_QUERY_TERMS = 1_000;

export type ParseResult = { ok: true; ast: QueryNode | null } | { ok: false; problem: QueryProblem };

/** Characters that end a bare word (besides whitespace): they have a meaning of their own. */
const wordEnds = new Set(['(', ')', '"', '[', ']', '{', '}', '<', '>']);
/** Characters a backslash may escape: the special ones, wildcards, the colon, the backslash itself, whitespace. */
const escapable = new Set(['\\', '"', '*', '?', '(', ')', ':', '<', '>', '[', ']', '{', '}']);
const whitespace = /\s/u;
/** A field name: a letter or `_`, then letters, digits, `_` and `.`. */
const fieldNameShape = /[\p{L}_][\p{L}\p{N}_.]*/uy;
/** A keyword stands alone: it is followed by whitespace, a special character or the end. */
const keywordShape = /(and|or|not|to)(?=[\s()"[\]{}<>:]|$)/iuy;

type Keyword = 'and' | 'or' | 'not' | 'to';

function isSpace(character: string | undefined): boolean {
  return character !== undefined && whitespace.test(character);
}

/** Whether a backslash may escape `character` (printing escapes the same ones). */
export function isEscapable(character: string): boolean {
  return escapable.has(character) || isSpace(character);
}

/** Thrown inside the parser to stop at the first problem; parseQuery turns it into its answer. */
class ParseStop {
  constructor(readonly problem: QueryProblem) {}
}

function quoteForMessage(text: string): string {
  return text.length > 40 ? `'${text.slice(0, 40)}…'` : `'${text}'`;
}

class Parser {
  private position = 0;
  private depth = 0;
  private terms = 0;

  constructor(private readonly text: string) {}

  parse(): QueryNode | null {
    this.skipSpace();
    if (this.atEnd()) return null;
    const node = this.orExpression();
    this.skipSpace();
    if (!this.atEnd()) {
      // orExpression reads as far as it can; only a ')' nobody opened stops it before the end.
      const token = this.tokenAt(this.position);
      this.stop(
        'unexpected_token',
        this.position,
        token.end,
        `unexpected ${quoteForMessage(token.text)}: no '(' opens it`,
        {
          token: token.text,
        },
      );
    }
    return node;
  }

  // ---- the query's structure ----

  private orExpression(after?: string): QueryNode {
    const children = [this.andExpression(after)];
    while (this.keywordHere() === 'or') {
      const after = this.consumeKeyword();
      children.push(this.andExpression(after));
    }
    return children.length === 1 ? children[0]! : combine('or', children);
  }

  private andExpression(after?: string): QueryNode {
    const children = [this.notExpression(after)];
    for (;;) {
      this.skipSpace();
      if (this.atEnd() || this.peek() === ')') break;
      const keyword = this.keywordHere();
      if (keyword === 'or') break;
      // Two terms side by side with no operator are joined by `and`.
      const nextAfter = keyword === 'and' ? this.consumeKeyword() : undefined;
      children.push(this.notExpression(nextAfter));
    }
    return children.length === 1 ? children[0]! : combine('and', children);
  }

  private notExpression(after?: string): QueryNode {
    this.skipSpace();
    if (this.keywordHere() === 'not') {
      const start = this.position;
      const keyword = this.consumeKeyword();
      this.enter(start);
      const child = this.notExpression(keyword);
      this.leave();
      return { type: 'not', child, start, end: child.end };
    }
    return this.primary(after);
  }

  private primary(after?: string): QueryNode {
    this.skipSpace();
    const start = this.position;
    if (this.atEnd()) this.expected('a term', after);
    const character = this.peek()!;
    if (character === '(') {
      this.position++;
      this.enter(start);
      this.skipSpace();
      if (this.peek() === ')') {
        this.stop(
          'empty_query',
          start,
          this.position + 1,
          "nothing between '(' and ')': write a term inside the parentheses",
        );
      }
      const inner = this.orExpression('(');
      this.closeWith(')', start);
      this.leave();
      return inner;
    }
    if (character === '"') {
      const value = this.quoted();
      return { type: 'text', value, start: value.start, end: value.end };
    }
    if (wordEnds.has(character) || character === ':') this.expected('a term', after);
    const keyword = this.keywordHere();
    if (keyword === 'and' || keyword === 'or') this.expected('a term', after);
    const field = this.fieldHere();
    if (field) return this.fieldTerm(field);
    const value = this.word();
    return { type: 'text', value, start: value.start, end: value.end };
  }

  /** A field name followed by `:` or a comparison, or null when the word here is not one. */
  private fieldHere(): FieldRef | null {
    fieldNameShape.lastIndex = this.position;
    const match = fieldNameShape.exec(this.text);
    if (!match) return null;
    const end = this.position + match[0].length;
    let next = end;
    while (isSpace(this.text[next])) next++;
    const character = this.text[next];
    if (character !== ':' && character !== '<' && character !== '>') return null;
    this.position = next;
    return { name: match[0], start: end - match[0].length, end };
  }

  private fieldTerm(field: FieldRef): QueryNode {
    if (this.peek() !== ':') return this.comparison(field);
    this.position++;
    const after = `${field.name}:`;
    this.skipSpace();
    const character = this.peek();
    if (character === '<' || character === '>') return this.comparison(field);
    if (character === '[') return this.range(field);
    if (character === '*' && this.endsWord(this.position + 1)) {
      this.position++;
      this.countTerm(this.position - 1);
      return { type: 'exists', field, start: field.start, end: this.position };
    }
    if (character === '(') {
      const value = this.valueGroup();
      return { type: 'match', field, value, start: field.start, end: value.end };
    }
    const term = this.valueTerm(after);
    return { type: 'match', field, value: { type: 'value', ...term }, start: field.start, end: term.end };
  }

  private comparison(field: FieldRef): QueryNode {
    const first = this.peek()!;
    const op: CompareOp = this.text[this.position + 1] === '=' ? (`${first}=` as CompareOp) : (first as CompareOp);
    this.position += op.length;
    const value = this.valueTerm(`${field.name} ${op}`);
    return { type: 'compare', field, op, value, start: field.start, end: value.end };
  }

  private range(field: FieldRef): QueryNode {
    const open = this.position;
    this.position++;
    this.enter(open);
    const from = this.rangeEnd(`${field.name}: [`, 'start');
    this.skipSpace();
    if (this.atEnd()) this.unclosed(']', open);
    if (this.keywordHere() !== 'to') {
      const token = this.tokenAt(this.position);
      this.stop(
        'unexpected_token',
        this.position,
        token.end,
        `'to' expected in the range, found ${quoteForMessage(token.text)}`,
        {
          expected: 'to',
          token: token.text,
        },
      );
    }
    this.consumeKeyword();
    const to = this.rangeEnd('to', 'end');
    this.closeWith(']', open);
    this.leave();
    return { type: 'range', field, from, to, start: field.start, end: this.position };
  }

  /** One end of a range: a value, or `*` for an open end (null). */
  private rangeEnd(after: string, which: 'start' | 'end'): Term | null {
    this.skipSpace();
    if (this.atEnd()) this.expected(`the range's ${which}`, after);
    if (this.peek() === '*' && this.endsWord(this.position + 1)) {
      this.position++;
      return null;
    }
    return this.valueTerm(after, `the range's ${which}`);
  }

  // ---- values in parentheses: `port: (80 or 443)` ----

  private valueGroup(): ValueExpr {
    const open = this.position;
    this.position++;
    this.enter(open);
    this.skipSpace();
    if (this.peek() === ')') {
      this.stop(
        'empty_query',
        open,
        this.position + 1,
        "nothing between '(' and ')': write a value inside the parentheses",
      );
    }
    const inner = this.valueOr('(');
    this.closeWith(')', open);
    this.leave();
    return inner;
  }

  private valueOr(after: string): ValueExpr {
    const items = [this.valueAnd(after)];
    while (this.keywordHere() === 'or') {
      const keyword = this.consumeKeyword();
      items.push(this.valueAnd(keyword));
    }
    return items.length === 1 ? items[0]! : combineValues('valueOr', items);
  }

  private valueAnd(after: string): ValueExpr {
    const items = [this.valueNot(after)];
    for (;;) {
      this.skipSpace();
      if (this.atEnd() || this.peek() === ')') break;
      const keyword = this.keywordHere();
      if (keyword === 'or') break;
      const nextAfter = keyword === 'and' ? this.consumeKeyword() : undefined;
      items.push(this.valueNot(nextAfter));
    }
    return items.length === 1 ? items[0]! : combineValues('valueAnd', items);
  }

  private valueNot(after?: string): ValueExpr {
    this.skipSpace();
    const start = this.position;
    if (this.keywordHere() === 'not') {
      const keyword = this.consumeKeyword();
      this.enter(start);
      const item = this.valueNot(keyword);
      this.leave();
      return { type: 'valueNot', item, start, end: item.end };
    }
    if (this.peek() === '(') return this.valueGroup();
    return { type: 'value', ...this.valueTerm(after) };
  }

  // ---- terms ----

  /** A value where one is required: a quoted phrase or a bare word, not a keyword or a special character. */
  private valueTerm(after: string | undefined, what = 'a value'): Term {
    this.skipSpace();
    if (this.atEnd()) this.expected(what, after);
    const character = this.peek()!;
    if (character === '"') return this.quoted();
    const keyword = this.keywordHere();
    if (
      wordEnds.has(character) ||
      (keyword && keyword !== 'to') ||
      (keyword === 'to' && what.startsWith('the range'))
    ) {
      this.expected(what, after);
    }
    return this.word();
  }

  /** A bare word: up to whitespace or a special character; `*` and `?` are wildcards; `\` escapes. */
  private word(): Term {
    const start = this.position;
    const parts: TermPart[] = [];
    let literal = '';
    while (!this.atEnd()) {
      const character = this.peek()!;
      if (isSpace(character) || wordEnds.has(character)) break;
      if (character === '\\') {
        literal += this.escaped();
        continue;
      }
      if (character === '*' || character === '?') {
        if (literal) parts.push({ literal });
        literal = '';
        parts.push({ wildcard: character });
      } else {
        literal += character;
      }
      this.position++;
    }
    if (literal) parts.push({ literal });
    this.countTerm(start);
    return { parts, quoted: false, start, end: this.position };
  }

  /** A quoted phrase: everything up to the closing `"`, `\"` and `\\` escaped; no wildcards. */
  private quoted(): Term {
    const start = this.position;
    this.position++;
    let literal = '';
    while (!this.atEnd()) {
      const character = this.peek()!;
      if (character === '"') {
        this.position++;
        this.countTerm(start);
        return { parts: [{ literal }], quoted: true, start, end: this.position };
      }
      if (character === '\\' && this.position + 1 < this.text.length) {
        literal += this.escaped();
        continue;
      }
      literal += character;
      this.position++;
    }
    return this.stop(
      'unclosed_quote',
      start,
      this.text.length,
      `unclosed quote starting at ${start}: a closing '"' is missing`,
      { start: String(start) },
    );
  }

  /** The character a backslash here escapes; only special characters may be escaped. */
  private escaped(): string {
    const next = this.text[this.position + 1];
    if (next === undefined) {
      this.stop(
        'bad_escape',
        this.position,
        this.position + 1,
        "a '\\' at the end escapes nothing: write '\\\\' for a backslash",
      );
    }
    if (!isEscapable(next)) {
      // The escaped character whole, even when it takes two UTF-16 units.
      const written = `\\${String.fromCodePoint(this.text.codePointAt(this.position + 1)!)}`;
      this.stop(
        'bad_escape',
        this.position,
        this.position + written.length,
        `${quoteForMessage(written)} is not an escape: write '\\\\' for a backslash, or quote the value`,
        { escape: written },
      );
    }
    this.position += 2;
    return next;
  }

  // ---- helpers ----

  private atEnd(): boolean {
    return this.position >= this.text.length;
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private skipSpace(): void {
    while (isSpace(this.text[this.position])) this.position++;
  }

  /** Whether a word would end at `index` (so a `*` before it stands alone). */
  private endsWord(index: number): boolean {
    const character = this.text[index];
    return character === undefined || isSpace(character) || wordEnds.has(character);
  }

  private keywordHere(): Keyword | null {
    this.skipSpace();
    keywordShape.lastIndex = this.position;
    const match = keywordShape.exec(this.text);
    return match ? (match[1]!.toLowerCase() as Keyword) : null;
  }

  /** Steps over the keyword here and answers it as written, for messages. */
  private consumeKeyword(): string {
    keywordShape.lastIndex = this.position;
    const written = keywordShape.exec(this.text)![1]!;
    this.position += written.length;
    return written;
  }

  private closeWith(closing: ')' | ']', open: number): void {
    this.skipSpace();
    if (this.atEnd()) this.unclosed(closing, open);
    if (this.peek() !== closing) {
      const token = this.tokenAt(this.position);
      this.stop(
        'unexpected_token',
        this.position,
        token.end,
        `'${closing}' expected, found ${quoteForMessage(token.text)}`,
        {
          expected: closing,
          token: token.text,
        },
      );
    }
    this.position++;
  }

  private unclosed(closing: ')' | ']', open: number): never {
    const opening = closing === ')' ? '(' : '[';
    return this.stop(
      'unclosed_paren',
      this.text.length,
      this.text.length,
      `'${closing}' expected: the '${opening}' at ${open} is not closed`,
      { expected: closing, start: String(open) },
    );
  }

  /** Stops where `what` was expected: at the end of the text, or at the token found instead. */
  private expected(what: string, after: string | undefined): never {
    const afterText = after ? ` after ${quoteForMessage(after)}` : '';
    const detail: Record<string, string> = { expected: what };
    if (after) detail.after = after;
    if (this.atEnd()) {
      return this.stop('unexpected_end', this.text.length, this.text.length, `expected ${what}${afterText}`, detail);
    }
    const token = this.tokenAt(this.position);
    return this.stop(
      'unexpected_token',
      this.position,
      token.end,
      `unexpected ${quoteForMessage(token.text)}: expected ${what}${afterText}`,
      { ...detail, token: token.text },
    );
  }

  /** The token at `index` for a message: a special character, or the run of text up to one. */
  private tokenAt(index: number): { text: string; end: number } {
    const character = this.text[index]!;
    if (wordEnds.has(character) || character === ':') return { text: character, end: index + 1 };
    let end = index;
    while (
      end < this.text.length &&
      !isSpace(this.text[end]) &&
      !wordEnds.has(this.text[end]!) &&
      this.text[end] !== ':'
    )
      end++;
    return { text: this.text.slice(index, end), end };
  }

  private enter(at: number): void {
    this.depth++;
    if (this.depth > MAX_QUERY_DEPTH) {
      this.stop(
        'too_complex',
        at,
        at + 1,
        `the query nests more than ${MAX_QUERY_DEPTH} levels of parentheses and 'not'`,
        {
          limit: String(MAX_QUERY_DEPTH),
        },
      );
    }
  }

  private leave(): void {
    this.depth--;
  }

  private countTerm(start: number): void {
    this.terms++;
    if (this.terms > MAX_QUERY_TERMS) {
      this.stop(
        'too_complex',
        start,
        Math.max(this.position, start + 1),
        `the query has more than ${MAX_QUERY_TERMS} terms`,
        {
          limit: String(MAX_QUERY_TERMS),
        },
      );
    }
  }

  private stop(
    code: QueryProblemCode,
    position: number,
    end: number,
    message: string,
    detail?: Record<string, string>,
  ): never {
    const problem: QueryProblem = { position, end: Math.min(Math.max(end, position), this.text.length), message, code };
    if (detail) problem.detail = detail;
    throw new ParseStop(problem);
  }
}

function combine(type: 'and' | 'or', children: QueryNode[]): QueryNode {
  return { type, children, start: children[0]!.start, end: children[children.length - 1]!.end };
}

function combineValues(type: 'valueOr' | 'valueAnd', items: ValueExpr[]): ValueExpr {
  return { type, items, start: items[0]!.start, end: items[items.length - 1]!.end };
}

/**
 * Reads a query. An empty query (or only whitespace) gives a null tree, which finds everything; a query
 * that cannot be read gives its first problem. Never throws.
 */
export function parseQuery(text: string): ParseResult {
  try {
    return { ok: true, ast: new Parser(text).parse() };
  } catch (error) {
    if (error instanceof ParseStop) return { ok: false, problem: error.problem };
    // The depth bound keeps recursion shallow; this is the last guard of the never-throw promise.
    if (error instanceof RangeError) {
      return {
        ok: false,
        problem: { position: 0, end: 0, message: 'the query is too complex to read', code: 'too_complex' },
      };
    }
    throw error;
  }
}
