import { describe, expect, it } from 'vitest';
import { firstNonUtf8Byte, MAX_JSON_DEPTH, parseJsonLines, rawTopLevelNumber, type LineResult } from './lines';
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

  it('refuses a line that is not text with a reason that names what it is and quotes no byte of it', () => {
    const gzip = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xab, 0x56]);
    const body = Buffer.concat([
      Buffer.from([0, 0, 0, 0, 0x0a]),
      gzip,
      Buffer.from('\n\u0000{"a":1}\n{"a":"'),
      Buffer.from([0xe2, 0x82, 0x0a - 0x0a + 0x41]), // a character cut short
      Buffer.from('"}\n\u0007\n{"a":2}'),
    ]);
    const results = parseJsonLines(body, {}, keep);
    expect(summary(results)).toEqual([
      '1: line 1: not JSON text: it holds the control character U+0000 at character 1 (binary data?); send one JSON object per line, as UTF-8 text',
      '2: line 2: gzip-compressed data, not text: send the lines uncompressed, as UTF-8 JSON',
      '3: line 3: not JSON text: it holds the control character U+0000 at character 1 (binary data?); send one JSON object per line, as UTF-8 text',
      '4: line 4: not UTF-8 text: byte 7 (0xE2) does not belong to a UTF-8 character; send JSON lines in UTF-8 (binary data or another encoding?)',
      '5: line 5: not JSON text: it holds the control character U+0007 at character 1 (binary data?); send one JSON object per line, as UTF-8 text',
      6,
    ]);
  });

  it('quotes what a JSON error quotes only written out printably', () => {
    const [result] = parseJsonLines('{"a": \u0085\u202e}', {}, keep);
    expect(result?.ok).toBe(false);
    expect(result?.ok === false && result.reason).toMatch(/^line 1: not valid JSON \(.*\\x85\\u202e.*\)$/);
  });

  it('mends escaped halves of surrogate pairs, keeps whole pairs and escaped backslashes', () => {
    const body = '{"a":"x\\ud800y","b":"\\udc00","c":"\\ud83d\\ude00","d":"\\\\ud800","e":"\\ud800\\u0041"}';
    const [result] = parseJsonLines(body, {}, keep);
    expect(result).toMatchObject({
      ok: true,
      event: { a: 'x\ufffdy', b: '\ufffd', c: '😀', d: '\\ud800', e: '\ufffdA' },
      text: '{"a":"x\\ufffdy","b":"\\ufffd","c":"\\ud83d\\ude00","d":"\\\\ud800","e":"\\ufffd\\u0041"}',
    });
  });

  it('refuses a line nested deeper than the database reads', () => {
    const deep = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const [ok, refused] = parseJsonLines(`${deep(MAX_JSON_DEPTH)}\n${deep(MAX_JSON_DEPTH + 1)}`, {}, keep);
    expect(ok?.ok).toBe(true);
    expect(refused).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^line 2: nested more than 512 levels deep/),
    });
    const [huge] = parseJsonLines(deep(200_000), {}, keep);
    expect(huge?.ok).toBe(false);
  });

  it('finds the first byte that is not UTF-8', () => {
    expect(firstNonUtf8Byte(Buffer.from('aé😀'))).toBe(-1);
    expect(firstNonUtf8Byte(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstNonUtf8Byte(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstNonUtf8Byte(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // above U+10FFFF
    expect(firstNonUtf8Byte(Buffer.from([0x61, 0x62, 0xf0, 0x9f, 0x98]))).toBe(2); // cut short
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
