import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termText, type QueryNode, type QueryProblem, type Term, type ValueExpr } from './ast';
import { checkQuery, closeFieldNames, editDistance } from './check';
import { fieldFor, type SearchKind } from './fields';
import { parseQuery } from './parse';
import { parseBooleanValue, parseIpValue, parseNumberValue, parseTimeValue } from './values';

function check(text: string, kinds: readonly SearchKind[] = ['network']): QueryProblem[] {
  const result = parseQuery(text);
  if (!result.ok) throw new Error(`${text}: ${result.problem.message}`);
  return result.ast ? checkQuery(result.ast, kinds) : [];
}

describe('checkQuery: fields', () => {
  it('passes the fields of the kinds searched, and free text', () => {
    expect(check('src_ip: 10.0.0.1 and dest_port: 443 and mimikatz and signature: "ET POLICY"')).toEqual([]);
    expect(check('process_name: powershell.exe and command_line: "-enc"', ['endpoint'])).toEqual([]);
    expect(check('src_ip: 10.0.0.1 and dest_port: 443', ['network', 'endpoint'])).toEqual([]);
    expect(check('subject: invoice and recipient: *@example.ru', ['mail'])).toEqual([]);
    expect(check('status: new and score >= 70', ['alerts'])).toEqual([]);
  });

  it('names an unknown field at its place, with close names', () => {
    expect(check('scr_ip: 10.0.0.1')).toEqual([
      {
        position: 0,
        end: 6,
        code: 'unknown_field',
        message: "unknown field 'scr_ip' in network events; did you mean 'src_ip'?",
        detail: { field: 'scr_ip', suggestions: 'src_ip' },
      },
    ]);
    expect(check('a and dest_prt > 5')[0]).toMatchObject({
      position: 6,
      end: 14,
      message: expect.stringContaining("'dest_port'"),
    });
    expect(check('hostname: x', ['endpoint'])[0]?.message).toContain("'host_name'");
    expect(check('sha256: x', ['endpoint'])[0]?.message).toContain("'process_sha256'");
    expect(check('zzzzzzzz: x')[0]?.message).toBe("unknown field 'zzzzzzzz' in network events");
    expect(check('not (x: *)')[0]).toMatchObject({ code: 'unknown_field', position: 5, end: 6 });
    expect(check('bogus: [1 to 2]')[0]).toMatchObject({ code: 'unknown_field', position: 0, end: 5 });
  });

  it('names Cyrillic fields as unknown, at UTF-16 offsets', () => {
    expect(check('ok and имя: значение')).toEqual([
      expect.objectContaining({
        code: 'unknown_field',
        position: 7,
        end: 10,
        message: "unknown field 'имя' in network events",
      }),
    ]);
  });

  it('says when a field belongs to some of the kinds only', () => {
    const [problem] = check('signature: x', ['network', 'endpoint']);
    expect(problem).toMatchObject({ code: 'unknown_field', position: 0, end: 9 });
    expect(problem?.message).toBe(
      "the field 'signature' is not one of endpoint events: search network events alone to use it",
    );
  });

  it('answers every problem in text order', () => {
    expect(check('a: 1 and dest_port: x and b: 2').map((problem) => [problem.code, problem.position])).toEqual([
      ['unknown_field', 0],
      ['bad_value', 20],
      ['unknown_field', 26],
    ]);
  });
});

describe('checkQuery: values', () => {
  const cases: [string, SearchKind, Partial<QueryProblem> | null][] = [
    // number
    ['dest_port: 443', 'network', null],
    ['dest_port: (80 or 443 or not 8080)', 'network', null],
    ['dest_port: -1.5', 'network', null],
    ['dest_port: http', 'network', { code: 'bad_value', position: 11, end: 15 }],
    ['dest_port: 44*', 'network', { code: 'wildcard_not_allowed', position: 11, end: 14 }],
    ['dest_port: (80 or x)', 'network', { code: 'bad_value', position: 18, end: 19 }],
    ['dest_port > 1024', 'network', null],
    ['dest_port >= "1024"', 'network', null],
    ['dest_port < 1e3', 'network', { code: 'bad_value', position: 12, end: 15 }],
    ['dest_port: [1024 to 65535]', 'network', null],
    ['dest_port: [* to 1023]', 'network', null],
    ['dest_port: [2000 to 1000]', 'network', { code: 'bad_value', position: 12, end: 24 }],
    ['dest_port: [1 to x]', 'network', { code: 'bad_value', position: 17, end: 18 }],
    // ip
    ['src_ip: 10.0.0.1', 'network', null],
    ['src_ip: 10.0.0.0/8', 'network', null],
    ['src_ip: 2001:db8::1', 'network', null],
    ['src_ip: 2001:db8::/32', 'network', null],
    ['src_ip: 10.0.0.*', 'network', { code: 'wildcard_not_allowed', position: 8, end: 16 }],
    ['src_ip: 10.0.0.0/33', 'network', { code: 'bad_value', position: 8, end: 19 }],
    ['src_ip: 300.0.0.1', 'network', { code: 'bad_value' }],
    ['src_ip: localhost', 'network', { code: 'bad_value' }],
    ['src_ip > 10.0.0.1', 'network', null],
    ['src_ip > 10.0.0.0/8', 'network', { code: 'bad_value', position: 9, end: 19 }],
    ['src_ip: [10.0.0.1 to 10.0.0.255]', 'network', null],
    [
      'src_ip: [10.0.0.1 to ::1]',
      'network',
      { code: 'bad_value', message: "the range of 'src_ip' mixes an IPv4 and an IPv6 address" },
    ],
    ['src_ip: [10.0.0.0/8 to *]', 'network', { code: 'bad_value', position: 9, end: 19 }],
    // time
    ['ts >= now-24h', 'network', null],
    ['ts >= 2026-11-29T10:00:00Z', 'network', null],
    ['ts: 2026-11-29', 'network', null],
    ['ts: [now-7d to now]', 'network', null],
    ['ts: ["2026-11-29 10:00" to *]', 'network', null],
    ['ts >= yesterday', 'network', { code: 'bad_value', position: 6, end: 15 }],
    ['ts >= now-24y', 'network', { code: 'bad_value' }],
    ['ts: 2026-11-*', 'network', { code: 'wildcard_not_allowed', position: 4, end: 13 }],
    [
      'ts: [now to now-1d]',
      'network',
      { code: 'bad_value', message: "the range of 'ts' starts after it ends: write the smaller value first" },
    ],
    // boolean
    ['file_stored: true', 'network', null],
    ['file_stored: FALSE', 'network', null],
    ['file_stored: yes', 'network', { code: 'bad_value', position: 13, end: 16 }],
    ['file_stored: t*', 'network', { code: 'wildcard_not_allowed' }],
    ['file_stored > true', 'network', { code: 'type_mismatch', position: 0, end: 18 }],
    // keyword and text
    ['dns_rrname: *.example.ru', 'network', null],
    ['signature: "ET TROJAN" and http_url: */admin?', 'network', null],
    ['smtp_rcpt_to: (a@x.ru or b@x.ru)', 'network', null],
    [
      'proto > tcp',
      'network',
      {
        code: 'type_mismatch',
        position: 0,
        end: 11,
        message: "'proto' is a keyword field and cannot be compared with '>': only numbers, addresses and times can",
      },
    ],
    ['signature: [a to b]', 'network', { code: 'type_mismatch', position: 0, end: 19 }],
    // exists, whatever the type
    ['src_ip: * and ts: * and file_stored: * and signature: *', 'network', null],
  ];
  it.each(cases)('%s (%s)', (query, kind, expected) => {
    const problems = check(query, [kind]);
    if (expected === null) expect(problems).toEqual([]);
    else {
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject(expected);
    }
  });
});

describe('editDistance and closeFieldNames', () => {
  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('finds at most three close names', () => {
    expect(closeFieldNames('ip', ['network'])[0]).toBe('ip');
    expect(closeFieldNames('dest', ['network'])).toEqual(['dest_ip', 'dest_port']);
    expect(closeFieldNames('port', ['network']).length).toBeLessThanOrEqual(3);
    expect(closeFieldNames('qqqqqqqqq', ['network'])).toEqual([]);
  });
});

// The compiler trusts checked values: whatever the checker passes, the value helpers read.
describe('checkQuery: a checked query holds only readable values', () => {
  const now = new Date();
  const values = fc.oneof(
    fc.constantFrom(
      '443',
      '-1',
      '0.5',
      '1e3',
      'true',
      'FALSE',
      'yes',
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
      '2001:db8::/32',
      '300.1.1.1',
    ),
    fc.constantFrom(
      'now',
      'now-24h',
      'now-99999999w',
      '2026-11-29',
      '2026-02-30',
      '2026-11-29T10:00:00Z',
      '*',
      'a*',
      '"x y"',
    ),
    fc.string({
      unit: fc.constantFrom('1', '0', '.', ':', '/', '-', 'a', 'f', 'n', 'o', 'w', 'T', 'Z'),
      minLength: 1,
      maxLength: 12,
    }),
  );
  const fieldNames = fc.constantFrom('dest_port', 'src_ip', 'ts', 'file_stored', 'signature', 'proto', 'signature_id');
  const clause = fc.oneof(
    fc.tuple(fieldNames, values).map(([field, value]) => `${field}: ${value}`),
    fc
      .tuple(fieldNames, fc.constantFrom('>', '>=', '<', '<='), values)
      .map(([field, op, value]) => `${field} ${op} ${value}`),
    fc.tuple(fieldNames, values, values).map(([field, from, to]) => `${field}: [${from} to ${to}]`),
    fc.tuple(fieldNames, values, values).map(([field, first, second]) => `${field}: (${first} or not ${second})`),
  );

  function terms(node: QueryNode): { field: string; term: Term; ordered: boolean }[] {
    const fromValue = (field: string, value: ValueExpr): { field: string; term: Term; ordered: boolean }[] =>
      value.type === 'value'
        ? [{ field, term: value, ordered: false }]
        : value.type === 'valueNot'
          ? fromValue(field, value.item)
          : value.items.flatMap((item) => fromValue(field, item));
    switch (node.type) {
      case 'and':
      case 'or':
        return node.children.flatMap(terms);
      case 'not':
        return terms(node.child);
      case 'match':
        return fromValue(node.field.name, node.value);
      case 'compare':
        return [{ field: node.field.name, term: node.value, ordered: true }];
      case 'range':
        return [node.from, node.to].flatMap((term) => (term ? [{ field: node.field.name, term, ordered: true }] : []));
      default:
        return [];
    }
  }

  it('never passes a value its helper cannot read', () => {
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 4 }), (clauses) => {
        const result = parseQuery(clauses.join(' and '));
        if (!result.ok || !result.ast) return;
        if (checkQuery(result.ast, ['network']).length > 0) return;
        for (const { field, term, ordered } of terms(result.ast)) {
          const type = fieldFor(['network'], field)!.type;
          const text = termText(term);
          if (type === 'number') expect(parseNumberValue(text), text).not.toBeNull();
          if (type === 'boolean') expect(parseBooleanValue(text), text).not.toBeNull();
          if (type === 'time') expect(parseTimeValue(text, now), text).not.toBeNull();
          if (type === 'ip') {
            const address = parseIpValue(text);
            expect(address, text).not.toBeNull();
            if (ordered) expect(address!.prefix).toBeNull();
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
