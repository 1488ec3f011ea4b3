import { describe, expect, it } from 'vitest';
import {
  FieldError,
  expandDottedKeys,
  get,
  normaliseIp,
  normaliseTimestamp,
  readInteger,
  readTimestamp,
} from './values';

describe('normaliseIp', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::192.0.2.1', '::c000:201'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseIp(input)).toBe(expected);
  });

  it.each(['', '192.0.2', '192.0.2.256', '01.2.3.4', 'localhost', '2001:db8::1::2', '1.2.3.4%x', ':::'])(
    'refuses %j',
    (input) => {
      expect(normaliseIp(input)).toBeNull();
    },
  );
});

describe('normaliseTimestamp', () => {
  it.each([
    ['2024-05-06T10:11:12Z', '2024-05-06T10:11:12Z'],
    ['2024-05-06T10:11:12.123456+0000', '2024-05-06T10:11:12.123456Z'],
    ['2024-05-06T10:11:12.1234567Z', '2024-05-06T10:11:12.123456Z'],
    ['2024-05-06T10:11:12.500000Z', '2024-05-06T10:11:12.5Z'],
    ['2024-05-06 10:11:12.589', '2024-05-06T10:11:12.589Z'],
    ['2024-05-06T12:11:12+02:00', '2024-05-06T10:11:12Z'],
    ['2024-05-06T00:30:00-0130', '2024-05-06T02:00:00Z'],
    ['2024-05-06T00:30:00+01', '2024-05-05T23:30:00Z'],
    ['2024-05-06T10:11:12,25Z', '2024-05-06T10:11:12.25Z'],
    ['2024-05-06T10:11', '2024-05-06T10:11:00Z'],
    ['2024-05-06', '2024-05-06T00:00:00Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00Z'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseTimestamp(input)).toBe(expected);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-05-06T24:00:00Z',
    '2024-05-06T10:60:00Z',
    '2024-05-06T10:11:60Z',
    '2024-05-06T10:11:12+2400',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:00:00-0200',
    'May 6 2024',
    '1715000000',
  ])('refuses %j', (input) => {
    expect(normaliseTimestamp(input)).toBeNull();
  });

  it('reads epoch milliseconds and refuses what is out of range', () => {
    expect(readTimestamp(1715000000123, 't')).toBe('2024-05-06T12:53:20.123Z');
    expect(() => readTimestamp(Number.POSITIVE_INFINITY, 't')).toThrow(FieldError);
    expect(() => readTimestamp(1e300, 't')).toThrow('t is not a timestamp (1e+300)');
    expect(() => readTimestamp({}, 't')).toThrow('t is not a timestamp (an object)');
  });
});

describe('readInteger', () => {
  it('reads numbers, decimal text and, when asked, hex', () => {
    expect(readInteger(12, 'n')).toBe(12);
    expect(readInteger(' 12 ', 'n')).toBe(12);
    expect(readInteger('0x1F4', 'n', { hex: true })).toBe(500);
    expect(readInteger(null, 'n')).toBeNull();
    expect(() => readInteger('0x1F4', 'n')).toThrow('n must be a whole number of 0 or more, found "0x1F4"');
    expect(() => readInteger(2 ** 53, 'n')).toThrow(FieldError);
    expect(() => readInteger(1.5, 'n')).toThrow(FieldError);
    expect(() => readInteger(true, 'n')).toThrow(FieldError);
  });
});

describe('get and expandDottedKeys', () => {
  it('reads nested objects, own properties only', () => {
    expect(get({ process: { parent: { pid: 1 } } }, 'process.parent.pid')).toBe(1);
    expect(get({}, 'constructor')).toBeUndefined();
    expect(get({ a: 'text' }, 'a.length')).toBeUndefined();
  });

  it('turns dotted keys into nested objects, mixes of both too', () => {
    expect(expandDottedKeys({ 'process.parent.pid': 2, host: { 'os.name': 'Ubuntu' } })).toEqual({
      process: { parent: { pid: 2 } },
      host: { os: { name: 'Ubuntu' } },
    });
    expect(expandDottedKeys({ process: { pid: 1, name: 'a' }, 'process.pid': 3 })).toEqual({
      process: { pid: 3, name: 'a' },
    });
    expect(expandDottedKeys({ 'process.parent': { pid: 4 }, 'process.parent.name': 'x' })).toEqual({
      process: { parent: { pid: 4, name: 'x' } },
    });
    const plain = { process: { pid: 1 } };
    expect(expandDottedKeys(plain)).toBe(plain);
  });

  it('never sets anything through __proto__', () => {
    const record = JSON.parse(
      '{"a.__proto__.polluted": 1, "__proto__.polluted": 2, "b.c": {"__proto__": {"x": 1}}}',
    ) as Record<string, unknown>;
    const expanded = expandDottedKeys(record);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(expanded)).toBe(Object.prototype);
    expect(Object.keys(expanded)).toEqual(['b']);
  });
});
