import { describe, expect, it } from 'vitest';
import { parseCsv, readIndicatorCsv, writeIndicatorCsv } from './indicator-csv';
import type { IndicatorRow } from './indicators.repository';

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF and a BOM, with line numbers', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\nlast,,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 5, fields: ['last', '', ''] },
    ]);
  });
});

describe('readIndicatorCsv / writeIndicatorCsv', () => {
  it('round-trips an export through the import', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const row: IndicatorRow = {
      id: 1,
      company_id: 1,
      scope: 'company',
      type: 'url',
      value: 'http://evil.example/a,b',
      policy: 'ignore',
      severity: 'critical',
      expires_at: new Date('2030-01-01T00:00:00Z'),
      tags: ['x', 'y'],
      source: 'feed "A"',
      description: 'line one\nline two',
      created_at: now,
      updated_at: now,
    };
    const { rows, rejected } = readIndicatorCsv(writeIndicatorCsv([row]));
    expect(rejected).toEqual([]);
    expect(rows).toEqual([
      {
        type: 'url',
        value: 'http://evil.example/a,b',
        policy: 'ignore',
        severity: 'critical',
        expires_at: '2030-01-01T00:00:00.000Z',
        tags: ['x', 'y'],
        source: 'feed "A"',
        description: 'line one\nline two',
      },
    ]);
  });

  it('reports bad rows by line and field and keeps the good ones', () => {
    const { rows, rejected } = readIndicatorCsv(
      'type,value,expires_at\nip,1.2.3.4,\nip,1.2.3.4.5,\nmd5,' + 'a'.repeat(32) + ',tomorrow\nip,1.2.3.4,x,extra\n',
    );
    expect(rows.map((r) => r.value)).toEqual(['1.2.3.4']);
    expect(rejected.map((r) => [r.row, r.field])).toEqual([
      [3, 'value'],
      [4, 'expires_at'],
      [5, 'row'],
    ]);
  });
});
