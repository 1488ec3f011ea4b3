/**
 * The query checker: what a parsed query asks of the kinds searched. Every field must exist (with one
 * type) in each kind, and every value must be one its field's type reads (values.ts). A query the
 * checker passes can be compiled without another look at its values.
 */
import { hasWildcard, termText, type QueryNode, type QueryProblem, type Term, type ValueExpr } from './ast';
import {
  commonFields,
  fieldFor,
  searchFields,
  type SearchField,
  type SearchFieldType,
  type SearchKind,
} from './fields';
import { parseBooleanValue, parseIpValue, parseNumberValue, parseTimeValue } from './values';

/** What each type accepts, for messages. */
const typeAccepts: Record<SearchFieldType, string> = {
  keyword: 'any value',
  text: 'any text',
  number: 'a number such as 443 or 0.5',
  ip: 'an IPv4 or IPv6 address or a CIDR block such as 10.0.0.0/8',
  time: 'a date or time such as 2026-11-29, 2026-11-29T10:00:00Z or now-24h',
  boolean: 'true or false',
};

/** The number of single-character edits between two words, for "did you mean". */
export function editDistance(first: string, second: string): number {
  let previous = Array.from({ length: second.length + 1 }, (_, index) => index);
  for (let row = 1; row <= first.length; row++) {
    const current = [row];
    for (let column = 1; column <= second.length; column++) {
      const cost = first[row - 1] === second[column - 1] ? 0 : 1;
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost));
    }
    previous = current;
  }
  return previous[second.length]!;
}

/** Up to three field names of `kinds` close to `name`: few edits away, or containing it. */
export function closeFieldNames(name: string, kinds: readonly SearchKind[]): string[] {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(lower.length / 3));
  return commonFields(kinds)
    .map((candidate) => ({
      candidate,
      distance: lower.length >= 3 && candidate.includes(lower) ? 0.5 : editDistance(lower, candidate),
    }))
    .filter(({ distance }) => distance <= limit)
    .sort((first, second) => first.distance - second.distance || first.candidate.localeCompare(second.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function kindsText(kinds: readonly SearchKind[]): string {
  const names = kinds.map((kind) => (kind === 'alerts' ? 'alerts' : `${kind} events`));
  return names.length <= 1
    ? (names[0] ?? 'no kind')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function quoted(text: string): string {
  return text.length > 60 ? `'${text.slice(0, 60)}…'` : `'${text}'`;
}

/** Checks a parsed query against the kinds it searches; answers every problem found, in text order. */
export function checkQuery(ast: QueryNode, kinds: readonly SearchKind[]): QueryProblem[] {
  const problems: QueryProblem[] = [];
  const now = new Date();

  const unknownField = (name: string, start: number, end: number) => {
    const holders = kinds.filter((kind) => Object.hasOwn(searchFields[kind], name));
    let message: string;
    if (holders.length > 0 && holders.length < kinds.length) {
      const missing = kinds.filter((kind) => !holders.includes(kind));
      message = `the field ${quoted(name)} is not one of ${kindsText(missing)}: search ${kindsText(holders)} alone to use it`;
    } else if (holders.length === kinds.length && kinds.length > 0) {
      message = `the field ${quoted(name)} has a different type in ${kindsText(kinds)}: search them one at a time to use it`;
    } else {
      const close = closeFieldNames(name, kinds);
      message = `unknown field ${quoted(name)} in ${kindsText(kinds)}`;
      if (close.length > 0) message += `; did you mean ${close.map((field) => `'${field}'`).join(', ')}?`;
    }
    problems.push({
      position: start,
      end,
      message,
      code: 'unknown_field',
      detail: { field: name, suggestions: closeFieldNames(name, kinds).join(',') },
    });
  };

  /** Checks one value of a typed field; answers whether it was good. */
  const checkTerm = (fieldName: string, field: SearchField, term: Term, ordered: boolean): boolean => {
    if (field.type === 'keyword' || field.type === 'text') return true;
    const text = termText(term);
    if (hasWildcard(term)) {
      problems.push({
        position: term.start,
        end: term.end,
        message: `wildcards are not allowed in ${quoted(fieldName)}, a ${field.type} field: it takes ${typeAccepts[field.type]}`,
        code: 'wildcard_not_allowed',
        detail: { field: fieldName, type: field.type, value: text },
      });
      return false;
    }
    let good: boolean;
    let accepts = typeAccepts[field.type];
    if (field.type === 'number') good = parseNumberValue(text) !== null;
    else if (field.type === 'boolean') good = parseBooleanValue(text) !== null;
    else if (field.type === 'time') good = parseTimeValue(text, now) !== null;
    else {
      const address = parseIpValue(text);
      // An address compares and ranges; a block does not (it is matched with `field: block`).
      good = address !== null && (!ordered || address.prefix === null);
      if (ordered) accepts = 'an IPv4 or IPv6 address (a block is matched with field: block, not compared)';
    }
    if (!good) {
      problems.push({
        position: term.start,
        end: term.end,
        message: `${quoted(text)} is not a value of ${quoted(fieldName)}: it takes ${accepts}`,
        code: 'bad_value',
        detail: { field: fieldName, type: field.type, value: text },
      });
    }
    return good;
  };

  const checkValue = (fieldName: string, field: SearchField, value: ValueExpr): void => {
    if (value.type === 'value') checkTerm(fieldName, field, value, false);
    else if (value.type === 'valueNot') checkValue(fieldName, field, value.item);
    else for (const item of value.items) checkValue(fieldName, field, item);
  };

  const orderedTypes: readonly SearchFieldType[] = ['number', 'ip', 'time'];

  const visit = (node: QueryNode): void => {
    switch (node.type) {
      case 'and':
      case 'or':
        for (const child of node.children) visit(child);
        return;
      case 'not':
        visit(node.child);
        return;
      case 'text':
        return;
      default:
        break;
    }
    const field = fieldFor(kinds, node.field.name);
    if (!field) {
      unknownField(node.field.name, node.field.start, node.field.end);
      return;
    }
    const name = node.field.name;
    if (node.type === 'exists') return;
    if (node.type === 'match') {
      checkValue(name, field, node.value);
      return;
    }
    if (!orderedTypes.includes(field.type)) {
      const what = node.type === 'compare' ? `compared with '${node.op}'` : 'given a range';
      problems.push({
        position: node.start,
        end: node.end,
        message: `${quoted(name)} is a ${field.type} field and cannot be ${what}: only numbers, addresses and times can`,
        code: 'type_mismatch',
        detail: { field: name, type: field.type },
      });
      return;
    }
    if (node.type === 'compare') {
      checkTerm(name, field, node.value, true);
      return;
    }
    const fromGood = node.from ? checkTerm(name, field, node.from, true) : true;
    const toGood = node.to ? checkTerm(name, field, node.to, true) : true;
    if (node.from && node.to && fromGood && toGood) checkRangeOrder(name, field.type, node.from, node.to);
  };

  /** A range whose start is after its end finds nothing; that is surely a mistake, so it is a problem. */
  const checkRangeOrder = (fieldName: string, type: SearchFieldType, from: Term, to: Term): void => {
    const fromText = termText(from);
    const toText = termText(to);
    let reversed = false;
    if (type === 'number') reversed = parseNumberValue(fromText)! > parseNumberValue(toText)!;
    else if (type === 'time')
      reversed = parseTimeValue(fromText, now)!.getTime() > parseTimeValue(toText, now)!.getTime();
    else {
      const first = parseIpValue(fromText)!;
      const second = parseIpValue(toText)!;
      if (first.family !== second.family) {
        problems.push({
          position: from.start,
          end: to.end,
          message: `the range of ${quoted(fieldName)} mixes an IPv4 and an IPv6 address`,
          code: 'bad_value',
          detail: { field: fieldName, type, value: `${fromText} to ${toText}` },
        });
        return;
      }
    }
    if (reversed) {
      problems.push({
        position: from.start,
        end: to.end,
        message: `the range of ${quoted(fieldName)} starts after it ends: write the smaller value first`,
        code: 'bad_value',
        detail: { field: fieldName, type, value: `${fromText} to ${toText}` },
      });
    }
  };

  visit(ast);
  return problems;
}
