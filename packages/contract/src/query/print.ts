/**
 * Printing a syntax tree back as query text that reads as the same tree (positions aside): for the
 * console's rewriting of queries and for the parser's round-trip tests.
 */
import type { QueryNode, Term, ValueExpr } from './ast';
import { isEscapable } from './parse';

/**
 * A term as query text: a phrase quoted with `"` and `\` escaped; a bare word with its special characters
 * escaped. Where it stands matters: free text escapes `:` too (or `a:b` would read as a field), and a
 * range's end cannot be a bare `to`.
 */
export function printTerm(term: Pick<Term, 'parts' | 'quoted'>, place: 'text' | 'value' | 'range' = 'value'): string {
  if (term.quoted || term.parts.length === 0) {
    const text = term.parts.map((part) => ('literal' in part ? part.literal : part.wildcard)).join('');
    return `"${text.replace(/[\\"]/g, '\\$&')}"`;
  }
  const escapeCharacter = (character: string) =>
    (isEscapable(character) && (character !== ':' || place === 'text')) || character === '*' || character === '?'
      ? `\\${character}`
      : character;
  const printed = term.parts
    .map((part) => ('wildcard' in part ? part.wildcard : [...part.literal].map(escapeCharacter).join('')))
    .join('');
  // A bare word spelled like a keyword would read as the keyword; quoted, it reads as itself.
  return (place === 'range' ? /^(and|or|not|to)$/i : /^(and|or|not)$/i).test(printed) ? `"${printed}"` : printed;
}

function printValue(value: ValueExpr, inGroup: boolean): string {
  switch (value.type) {
    case 'value':
      return printTerm(value);
    case 'valueOr':
    case 'valueAnd':
      return `(${value.items.map((item) => printValue(item, true)).join(value.type === 'valueOr' ? ' or ' : ' and ')})`;
    case 'valueNot':
      return inGroup ? `not ${printValue(value.item, true)}` : `(not ${printValue(value.item, true)})`;
  }
}

function printChild(node: QueryNode): string {
  return node.type === 'and' || node.type === 'or' ? `(${printQuery(node)})` : printQuery(node);
}

/**
 * A tree as query text that reads back as the same tree (positions aside): for the console's
 * rewriting of queries and for tests. Groups are always parenthesised, so precedence never matters.
 */
export function printQuery(node: QueryNode): string {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.children.map(printChild).join(` ${node.type} `);
    case 'not':
      return `not ${printChild(node.child)}`;
    case 'match': {
      const value = node.value;
      // A lone bare `*` after `field:` reads as "has a value"; in parentheses it stays a value.
      const loneStar =
        value.type === 'value' &&
        !value.quoted &&
        value.parts.length === 1 &&
        'wildcard' in value.parts[0]! &&
        value.parts[0].wildcard === '*';
      return `${node.field.name}: ${loneStar ? '(*)' : printValue(value, false)}`;
    }
    case 'compare':
      return `${node.field.name} ${node.op} ${printTerm(node.value)}`;
    case 'range':
      return `${node.field.name}: [${node.from ? printTerm(node.from, 'range') : '*'} to ${node.to ? printTerm(node.to, 'range') : '*'}]`;
    case 'exists':
      return `${node.field.name}: *`;
    case 'text':
      return printTerm(node.value, 'text');
  }
}
