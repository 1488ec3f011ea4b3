import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CompareOp, QueryNode, Term, TermPart, ValueExpr } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { compile } from '../../db/sql';
import { bucketOf, bucketRange, bucketWidth, MAX_BUCKETS } from './search-buckets';
import { compileSearchQuery, SearchCompileError, searchTextOf } from './search-sql';

const NOW = new Date('2026-11-29T12:00:00Z');

/** A bare term; `*` and `?` in `text` become wildcards. */
function term(text: string, quoted = false): Term {
  const parts: TermPart[] = quoted
    ? [{ literal: text }]
    : text
        .split(/([*?])/)
        .filter((piece) => piece !== '')
        .map((piece) => (piece === '*' || piece === '?' ? { wildcard: piece } : { literal: piece }));
  return { parts, quoted, start: 0, end: text.length };
}
const ref = (name: string) => ({ name, start: 0, end: name.length });
const value = (text: string, quoted = false): ValueExpr => ({ type: 'value', ...term(text, quoted) });
const match = (field: string, v: ValueExpr | string): QueryNode => ({
  type: 'match',
  field: ref(field),
  value: typeof v === 'string' ? value(v) : v,
  start: 0,
  end: 1,
});
const compare = (field: string, op: CompareOp, text: string): QueryNode => ({
  type: 'compare',
  field: ref(field),
  op,
  value: term(text),
  start: 0,
  end: 1,
});

function compiled(node: QueryNode | null, kind: 'network' | 'endpoint' | 'mail' | 'alerts' = 'network') {
  return compile(compileSearchQuery(node, kind, NOW));
}

describe('compileSearchQuery', () => {
  it('matches everything for the empty query', () => {
    expect(compiled(null)).toEqual({ text: 'TRUE', values: [] });
  });

  it('compares keywords whatever the case, and takes every value as a parameter', () => {
    const hostile = "'; DROP TABLE alerts; --";
    expect(compiled(match('host_name', hostile), 'endpoint')).toEqual({
      text: 'lower("e"."host_name") = lower($1::text)',
      values: [hostile],
    });
  });

  it('compares keywords the pipeline keeps lower-cased to the lower-cased value, in their stored form', () => {
    expect(compiled(match('sender', 'Billing@Example.com'), 'mail')).toEqual({
      text: '"e"."sender" = lower($1::text)',
      values: ['Billing@Example.com'],
    });
    expect(compiled(match('dhcp_mac', 'AA-BB-CC-DD-EE-FF')).values).toEqual(['aa:bb:cc:dd:ee:ff']);
    expect(compiled(match('tls_serial', value('0A:1B:2C', true))).values).toEqual(['0a1b2c']);
  });

  it('turns wildcards into an escaped ILIKE pattern over the whole value', () => {
    const { text, values } = compiled(match('parent_name', value('50%_off!*.e?e')), 'endpoint');
    expect(text).toBe(`"e"."parent_name" ILIKE $1 ESCAPE '!'`);
    expect(values).toEqual(['50!%!_off!!%.e_e']);
  });

  it('puts the trigram prefilter of the indexed text before a pattern on one of its fields', () => {
    const endpointText = searchTextOf('endpoint')!;
    const wildcard = compiled(match('process_name', value('50%_off!*.e?e')), 'endpoint');
    expect(wildcard).toEqual({
      text: `(${compile(endpointText).text} ILIKE $1 ESCAPE '!' AND "e"."process_name" ILIKE $2 ESCAPE '!')`,
      values: ['%50!%!_off!!%.e_e%', '50!%!_off!!%.e_e'],
    });
    expect(compiled(match('command_line', value('-enc', true)), 'endpoint')).toEqual({
      text: `(${compile(endpointText).text} ILIKE $1 ESCAPE '!' AND "e"."command_line" ILIKE $2 ESCAPE '!')`,
      values: ['%-enc%', '%-enc%'],
    });
    const free = compiled({ type: 'text', value: term('psexesvc'), start: 0, end: 8 }, 'network');
    expect(free.text.startsWith(`(${compile(searchTextOf('network')!).text} ILIKE $1 ESCAPE '!' AND ((`)).toBe(true);
    // Mail and alerts have no such index; neither does a field outside the text.
    expect(searchTextOf('mail')).toBeNull();
    expect(compiled(match('registry_path', value('*Run*')), 'endpoint').text).toBe(
      `"e"."registry_path" ILIKE $1 ESCAPE '!'`,
    );
  });

  it('writes the indexed text exactly as the migration that indexes it', () => {
    const migrations = path.resolve(import.meta.dirname, '../../../migrations');
    const name = readdirSync(migrations).find((file) => file.endsWith('_search_text_indexes.sql'))!;
    const squeeze = (text: string) => text.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')');
    const migration = squeeze(readFileSync(path.join(migrations, name), 'utf8'));
    for (const kind of ['endpoint', 'network'] as const) {
      // The index names the columns bare; the query reads them as `e.` columns of the same table.
      const indexed = compile(searchTextOf(kind)!).text.replaceAll('e.', '');
      expect(migration).toContain(squeeze(`ON ${kind}_events USING gin (${indexed} gin_trgm_ops)`));
    }
  });

  it('looks for free text in every free-text field of the kind', () => {
    const free = compiled({ type: 'text', value: term('invoice'), start: 0, end: 7 }, 'mail');
    expect(free.text).toBe(
      `(("e"."subject" ILIKE $1 ESCAPE '!') OR ("e"."sender" ILIKE $2 ESCAPE '!') OR ` +
        `(EXISTS (SELECT 1 FROM unnest("e"."recipients") AS v(x) WHERE v.x ILIKE $3 ESCAPE '!')))`,
    );
    expect(free.values).toEqual(['%invoice%', '%invoice%', '%invoice%']);
  });

  it('reads addresses and blocks with <<=, and either side for `ip`', () => {
    expect(compiled(match('src_ip', '10.0.0.0/8'))).toEqual({
      text: '"e"."src_ip" <<= $1::inet',
      values: ['10.0.0.0/8'],
    });
    expect(compiled(match('ip', '2001:db8::1')).text).toBe(
      '(("e"."src_ip" <<= $1::inet) OR ("e"."dest_ip" <<= $2::inet))',
    );
    expect(compiled(compare('dest_ip', '>=', '10.0.0.5')).text).toBe('"e"."dest_ip" >= $1::inet');
  });

  it('compares and ranges numbers and times, both ends included and either open', () => {
    expect(compiled(compare('dest_port', '<', '1024'))).toEqual({ text: '"e"."dest_port" < $1::int8', values: [1024] });
    const range: QueryNode = { type: 'range', field: ref('dest_port'), from: term('80'), to: null, start: 0, end: 1 };
    expect(compiled(range).text).toBe('"e"."dest_port" >= $1::int8');
    const both: QueryNode = { ...range, to: term('443') };
    expect(compiled(both).text).toBe('(("e"."dest_port" >= $1::int8) AND ("e"."dest_port" <= $2::int8))');
    const recent = compiled(compare('ts', '>=', 'now-15m'), 'alerts');
    expect(recent).toEqual({ text: '"e"."first_seen" >= $1::timestamptz', values: ['2026-11-29T11:45:00.000Z'] });
    expect(compiled(match('sent_at', '2026-11-20'), 'mail')).toEqual({
      text: '"e"."sent_at" = $1::timestamptz',
      values: ['2026-11-20T00:00:00.000Z'],
    });
  });

  it('matches a many-valued field when any element does', () => {
    expect(compiled(match('tags', 'Phishing'), 'alerts')).toEqual({
      text: 'EXISTS (SELECT 1 FROM unnest("e"."tags") AS v(x) WHERE lower(v.x) = lower($1::text))',
      values: ['Phishing'],
    });
  });

  it('says has-a-value per type, and keeps rows without the field under NOT', () => {
    const exists = (field: string, kind: 'network' | 'mail' = 'network') =>
      compiled({ type: 'exists', field: ref(field), start: 0, end: 1 }, kind).text;
    expect(exists('tls_sni')).toBe(`"e"."tls_sni" <> ''`);
    expect(exists('dest_port')).toBe('"e"."dest_port" IS NOT NULL');
    expect(exists('url', 'mail')).toBe('cardinality("e"."urls") > 0');
    const negated = compiled({ type: 'not', child: match('severity', 'high'), start: 0, end: 1 });
    expect(negated.text).toBe('(lower("e"."severity") = lower($1::text)) IS NOT TRUE');
  });

  it('combines with AND, OR and value lists', () => {
    const node: QueryNode = {
      type: 'and',
      children: [
        match('dest_port', { type: 'valueOr', items: [value('80'), value('443')], start: 0, end: 1 }),
        match('file_stored', 'true'),
      ],
      start: 0,
      end: 1,
    };
    expect(compiled(node)).toEqual({
      text: '(((("e"."dest_port" = $1::int8) OR ("e"."dest_port" = $2::int8))) AND ("e"."file_stored" = $3::boolean))',
      values: [80, 443, true],
    });
  });

  it('refuses, at its place, a value of the wrong form and a field the kind lacks', () => {
    const at = (node: QueryNode, kind: 'network' | 'alerts' = 'network') => {
      try {
        compiled(node, kind);
      } catch (error) {
        expect(error).toBeInstanceOf(SearchCompileError);
        return (error as SearchCompileError).code;
      }
      return null;
    };
    expect(at(match('dest_port', 'eighty'))).toBe('bad_value');
    expect(at(match('dest_port', '8*'))).toBe('wildcard_not_allowed');
    expect(at(match('file_stored', 'maybe'))).toBe('bad_value');
    expect(at(match('signature', 'x'), 'alerts')).toBe('unknown_field');
    expect(at(match('constructor', 'x'))).toBe('unknown_field');
    expect(at(compare('signature', '>', 'x'))).toBe('type_mismatch');
  });
});

describe('histogram buckets', () => {
  it('picks the narrowest nice width that covers the range in at most 120 aligned buckets', () => {
    const from = new Date('2026-11-29T10:00:00Z');
    expect(bucketWidth(from, new Date('2026-11-29T10:01:00Z'))).toBe(1);
    expect(bucketWidth(from, new Date('2026-11-29T11:00:00Z'))).toBe(60);
    expect(bucketWidth(from, new Date('2026-11-30T10:00:00Z'))).toBe(15 * 60);
    expect(bucketWidth(new Date('2026-11-29T12:00:00Z'), new Date('2026-12-29T11:00:00Z'))).toBe(6 * 3600);
    expect(bucketWidth(from, new Date('2026-12-29T10:00:00Z'))).toBe(12 * 3600);
    expect(bucketWidth(new Date('1990-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'))).toBe(365 * 86400);
    expect(bucketWidth(new Date('1000-01-01T00:00:00Z'), new Date('9000-01-01T00:00:00Z')) % (365 * 86400)).toBe(0);
    for (const [a, b] of [
      ['2026-11-29T10:00:00.500Z', '2026-11-29T10:02:00.400Z'],
      ['2026-01-01T00:00:00Z', '2026-11-29T23:59:59Z'],
    ] as const) {
      const width = bucketWidth(new Date(a), new Date(b));
      const range = bucketRange(new Date(a), new Date(b), width);
      expect(range.length).toBeLessThanOrEqual(MAX_BUCKETS);
      expect(range[0]).toBe(bucketOf(new Date(a), width));
      expect(range.at(-1)).toBe(bucketOf(new Date(b), width));
    }
  });
});
