import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, readIndicatorCsv, writeIndicatorCsv } from './indicator-csv';
import type { IndicatorRow } from './indicators.repository';

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF and a BOM, with line numbers', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\nlast,,\n';
    expect(parseCsv(text)).toEqual({
      records: [
        { line: 1, fields: ['a', 'b', 'c'] },
        { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
        { line: 5, fields: ['last', '', ''] },
      ],
      errors: [],
    });
  });

  it('counts CRLF, LF and CR each as one line, inside quoted fields too', () => {
    const text = 'h\r\n"a\r\nb",1\r"c\rd\n\re",2\n\nnext,3\r\n';
    expect(parseCsv(text).records.map((r) => r.line)).toEqual([1, 2, 4, 9]);
  });

  it('keeps stray quotes as text, and reports a quoted field that is never closed', () => {
    expect(parseCsv('a"b,"x"y\nok,1\n"open,2\nmore\n')).toEqual({
      records: [
        { line: 1, fields: ['a"b', '"x"y'] },
        { line: 2, fields: ['ok', '1'] },
      ],
      errors: [{ line: 3, reason: expect.stringMatching(/never closed/) as string }],
    });
  });
});

function indicator(fields: Partial<IndicatorRow>): IndicatorRow {
  const now = new Date('2026-01-01T00:00:00Z');
  return {
    id: 1,
    company_id: 1,
    scope: 'company',
    type: 'domain',
    value: 'evil.example',
    policy: 'alert',
    severity: 'medium',
    expires_at: null,
    tags: [],
    source: '',
    description: '',
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

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

  it('reads quoted fields with commas and line breaks, and a BOM before the header', () => {
    const text = '\uFEFFtype,value,description\r\nurl,"http://a.example/x,y","one, two\r\nthree"\r\nip,1.2.3.4.5,\r\n';
    const { rows, rejected } = readIndicatorCsv(text);
    expect(rows).toMatchObject([{ type: 'url', value: 'http://a.example/x,y', description: 'one, two\r\nthree' }]);
    expect(rejected).toEqual([{ row: 4, field: 'value', reason: expect.any(String) as string }]);
  });

  it('reports a quoted field never closed, and a NUL, as row errors and keeps the rows before', () => {
    const text =
      'type,value,description\nip,1.1.1.1,ok\nip,2.2.2.2,"a\u0000b"\nip,3.3.3.3,"never closed\nip,4.4.4.4,\n';
    const { rows, rejected } = readIndicatorCsv(text);
    expect(rows.map((r) => r.value)).toEqual(['1.1.1.1']);
    expect(rejected).toEqual([
      { row: 3, field: 'row', reason: 'The row holds a NUL character; a CSV file is text.' },
      { row: 4, field: 'row', reason: expect.stringMatching(/never closed/) as string },
    ]);
  });

  it('puts a quote before cells a spreadsheet would run as formulas, and the import takes it off', () => {
    const row = indicator({
      type: 'email',
      value: '-x@evil.example',
      tags: ['@tag', 'plain'],
      source: '+cmd',
      description: '=HYPERLINK("http://evil.example","click")',
    });
    const text = writeIndicatorCsv([row, indicator({ source: '\tsheet', description: '\uFF1Dfull-width' })]);
    const lines = text.split('\r\n');
    expect(lines[1]).toBe(
      `email,'-x@evil.example,alert,medium,,'@tag;plain,'+cmd,"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
    expect(lines[2]).toBe(`domain,evil.example,alert,medium,,,'\tsheet,'\uFF1Dfull-width`);
    const back = readIndicatorCsv(text);
    expect(back.rejected).toEqual([]);
    expect(back.rows[0]).toMatchObject({
      value: '-x@evil.example',
      tags: ['@tag', 'plain'],
      source: '+cmd',
      description: row.description,
    });
    expect(back.rows[1]).toMatchObject({ source: 'sheet', description: '\uFF1Dfull-width' });
  });

  it('names unknown header columns shortly, however long or many they are', () => {
    const header = ['type', 'value', 'x'.repeat(500), ...Array.from({ length: 20 }, (_, i) => `extra${i}`)].join(',');
    const { rejected } = readIndicatorCsv(`${header}\nip,1.2.3.4\n`);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ row: 1, field: 'header' });
    expect(rejected[0]!.reason).toContain(`"${'x'.repeat(40)}…", "extra0", "extra1", "extra2", "extra3" and 16 more.`);
    expect(rejected[0]!.reason.length).toBeLessThan(300);
  });

  it('answers any bytes with rows or per-row errors, never an exception', () => {
    const header = 'type,value,policy,severity,expires_at,tags,source,description\n';
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, withHeader) => {
        const text = (withHeader ? header : '') + Buffer.from(bytes).toString('utf8');
        const { rows, rejected } = readIndicatorCsv(text);
        for (const r of rejected) {
          expect(r.row).toBeGreaterThanOrEqual(1);
          expect(r.reason).not.toBe('');
        }
        for (const r of rows) expect(`${r.value}${r.source}${r.description}${r.tags.join('')}`).not.toContain('\u0000');
      }),
      { numRuns: 300 },
    );
  });
});
