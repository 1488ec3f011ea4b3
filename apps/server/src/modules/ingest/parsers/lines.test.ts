import { describe, expect, it } from 'vitest';
import { parseJsonLines, rawTopLevelNumber, type LineResult } from './lines';
import { FieldError, type JsonObject } from './values';

/** A normaliser that keeps the record, and refuses one with `"bad": true`. */
const keep = (record: JsonObject): JsonObject => {
  if (record.bad === true) throw new FieldError('bad is true');
  return record;
};

const summary = (results: LineResult<JsonObject>[]) => results.map((r) => (r.ok ? r.line : `${r.line}: ${r.reason}`));

describe('JSON lines', () => {
  it('numbers lines from 1 counting blank ones, skips blank lines, accepts CRLF and a BOM', () => {
    const body = '\uFEFF{"a":1}\r\n\r\n   \n{"a":2}\n\t\n{"bad":true}\r\n{"a":3}';
    expect(summary(parseJsonLines(body, {}, keep))).toEqual([1, 4, '6: line 6: bad is true', 7]);
    expect(summary(parseJsonLines(Buffer.from(body), {}, keep))).toEqual([1, 4, '6: line 6: bad is true', 7]);
    expect(parseJsonLines('', {}, keep)).toEqual([]);
    expect(parseJsonLines('\n\n\r\n', {}, keep)).toEqual([]);
    expect(parseJsonLines(new Uint8Array(), {}, keep)).toEqual([]);
  });

  it('gives each event the text of its line, as stored for the record as it arrived', () => {
    const body = '{"a": 1,\t"b": "x\\u0000y"}\r\n{"big": 18446744073709551615}';
    for (const input of [body, Buffer.from(body)]) {
      const texts = parseJsonLines(input, {}, keep).map((r) => (r.ok ? r.text : r.reason));
      // Spacing and exact digits kept; only a \u0000 escape becomes \ufffd (text cannot hold NUL).
      expect(texts).toEqual(['{"a": 1,\t"b": "x\\ufffdy"}', '{"big": 18446744073709551615}']);
    }
  });

  it('refuses lines over the length limit by their byte length, without reading them', () => {
    const long = `{"a":"${'é'.repeat(40)}"}`; // 88 bytes in UTF-8, 48 characters
    const body = `{"a":1}\n${long}\n{"a":2}`;
    for (const input of [body, Buffer.from(body)]) {
      expect(summary(parseJsonLines(input, { maxLineBytes: 60 }, keep))).toEqual([
        1,
        '2: line 2: 88 bytes long, over the limit of 60 bytes per line',
        3,
      ]);
    }
    expect(summary(parseJsonLines(body, { maxLineBytes: 88 }, keep))).toEqual([1, 2, 3]);
    const huge = `{"a":"${'x'.repeat(1_100_000)}"}`;
    expect(summary(parseJsonLines(huge, {}, keep))).toEqual([
      '1: line 1: 1,100,008 bytes long, over the limit of 1,048,576 bytes per line',
    ]);
  });

  it('gives the JSON error and keeps the message short', () => {
    const [result] = parseJsonLines(`{"a": ${'['.repeat(500)}`, {}, keep);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/^line 1: not valid JSON \(.+\)$/) });
    expect(result?.ok === false && result.reason.length).toBeLessThan(200);
  });

  it('reads binary junk and invalid UTF-8 as refusals, never throws', () => {
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b, 0x0a, 0xc3, 0x28, 0x0a, 0x00]);
    const results = parseJsonLines(junk, {}, keep);
    expect(results.map((r) => [r.line, r.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
  });

  it('turns \\u0000 into U+FFFD (PostgreSQL cannot store NUL), but not an escaped backslash before u0000', () => {
    const [a, b] = parseJsonLines('{"ua":"curl\\u0000x"}\n{"path":"C:\\\\u0000"}', {}, keep);
    expect(a).toMatchObject({ ok: true, event: { ua: 'curl\uFFFDx' } });
    expect(b).toMatchObject({ ok: true, event: { path: 'C:\\u0000' } });
  });

  it('does not let __proto__ keys pollute anything', () => {
    const [result] = parseJsonLines(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
      {},
      keep,
    );
    expect(result?.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('reports an internal error as the line reason instead of throwing', () => {
    const broken = (): JsonObject => {
      throw new TypeError('boom');
    };
    expect(parseJsonLines('{"a":1}', {}, broken)).toEqual([
      { line: 1, ok: false, reason: 'line 1: could not be read (internal error: boom)' },
    ]);
  });
});

describe('rawTopLevelNumber', () => {
  it('finds the digits of a top-level key as written', () => {
    expect(rawTopLevelNumber('{"flow_id": 18446744073709551615, "x": 1}', 'flow_id')).toBe('18446744073709551615');
    expect(rawTopLevelNumber('{"a":{"flow_id":1},"flow_id":22}', 'flow_id')).toBe('22');
    expect(rawTopLevelNumber('{"a":"\\"flow_id\\": 5","b":[{"flow_id":3}]}', 'flow_id')).toBeNull();
    expect(rawTopLevelNumber('{"flow\\u005fid":77}', 'flow_id')).toBe('77');
    expect(rawTopLevelNumber('{"flow_id":"12"}', 'flow_id')).toBeNull();
    expect(rawTopLevelNumber('{"flow_id":1,"flow_id":2}', 'flow_id')).toBe('2');
  });
});
