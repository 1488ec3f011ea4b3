import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBooleanValue, parseIpValue, parseNumberValue, parseTimeValue } from './values';

describe('parseNumberValue', () => {
  it('reads integers and decimals', () => {
    expect(parseNumberValue('443')).toBe(443);
    expect(parseNumberValue('-1')).toBe(-1);
    expect(parseNumberValue('+7')).toBe(7);
    expect(parseNumberValue('0.5')).toBe(0.5);
    expect(parseNumberValue('.5')).toBe(0.5);
    expect(parseNumberValue('007')).toBe(7);
  });

  it('refuses anything else', () => {
    for (const text of ['', ' 1', '1 ', '1e3', '0x10', 'Infinity', 'NaN', '1.', '1.2.3', '--1', '1,5', '٣', '1_000']) {
      expect(parseNumberValue(text), text).toBeNull();
    }
  });

  it('reads what it accepts as a finite number', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e'), maxLength: 400 }), (text) => {
        const value = parseNumberValue(text);
        if (value !== null) expect(Number.isFinite(value)).toBe(true);
      }),
    );
  });
});

describe('parseBooleanValue', () => {
  it('reads true and false whatever the case', () => {
    expect(parseBooleanValue('true')).toBe(true);
    expect(parseBooleanValue('FALSE')).toBe(false);
    expect(parseBooleanValue('yes')).toBeNull();
    expect(parseBooleanValue('1')).toBeNull();
  });
});

describe('parseIpValue', () => {
  it('reads IPv4 addresses and blocks, clearing the bits past the prefix', () => {
    expect(parseIpValue('10.0.0.1')).toEqual({ address: '10.0.0.1', prefix: null, family: 4 });
    expect(parseIpValue('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 4 });
    expect(parseIpValue('10.1.2.3/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 4 });
    expect(parseIpValue('192.168.130.7/17')).toEqual({ address: '192.168.128.0', prefix: 17, family: 4 });
    expect(parseIpValue('1.2.3.4/32')).toEqual({ address: '1.2.3.4', prefix: 32, family: 4 });
    expect(parseIpValue('1.2.3.4/0')).toEqual({ address: '0.0.0.0', prefix: 0, family: 4 });
  });

  it('reads IPv6 addresses and blocks in canonical form', () => {
    expect(parseIpValue('2001:db8::1')).toEqual({ address: '2001:db8::1', prefix: null, family: 6 });
    expect(parseIpValue('2001:0DB8:0000:0000:0000:0000:0000:0001')).toEqual({
      address: '2001:db8::1',
      prefix: null,
      family: 6,
    });
    expect(parseIpValue('::1')).toEqual({ address: '::1', prefix: null, family: 6 });
    expect(parseIpValue('::')).toEqual({ address: '::', prefix: null, family: 6 });
    expect(parseIpValue('fe80::')).toEqual({ address: 'fe80::', prefix: null, family: 6 });
    expect(parseIpValue('2001:db8:0:1:0:0:0:1')).toEqual({ address: '2001:db8:0:1::1', prefix: null, family: 6 });
    expect(parseIpValue('1:0:0:2:0:0:0:3')).toEqual({ address: '1:0:0:2::3', prefix: null, family: 6 });
    expect(parseIpValue('1:0:1:0:1:0:1:0')).toEqual({ address: '1:0:1:0:1:0:1:0', prefix: null, family: 6 });
    expect(parseIpValue('::ffff:10.0.0.1')).toEqual({ address: '::ffff:a00:1', prefix: null, family: 6 });
    expect(parseIpValue('2001:db8:1234::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 6 });
    expect(parseIpValue('2001:db8::ffff/127')).toEqual({ address: '2001:db8::fffe', prefix: 127, family: 6 });
    expect(parseIpValue('::/0')).toEqual({ address: '::', prefix: 0, family: 6 });
  });

  it('refuses what is not an address or a block', () => {
    for (const text of [
      '',
      '10.0.0',
      '10.0.0.256',
      '10.0.0.01',
      '10.0.0.1/33',
      '10.0.0.1/',
      '10.0.0.1/08',
      '10.0.0.1/-1',
      '10.0.0.1/8/8',
      ' 10.0.0.1',
      '2001:db8::1::2',
      '2001:db8:::1',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7::8',
      '12345::',
      'fe80::1%eth0',
      '::1/129',
      '::ffff:10.0.0.1.1',
      '10.0.0.1::',
      'g::1',
      ':1',
      '1:',
      'localhost',
      '*',
    ]) {
      expect(parseIpValue(text), text).toBeNull();
    }
  });

  it('reads every IPv4 address it prints', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.option(fc.integer({ min: 0, max: 32 })), (address, prefix) => {
        const text = prefix === null ? address : `${address}/${prefix}`;
        const parsed = parseIpValue(text);
        expect(parsed).not.toBeNull();
        expect(parseIpValue(parsed!.address)).toMatchObject({ address: parsed!.address, family: 4 });
      }),
    );
  });

  it('reads every IPv6 address, and its canonical form reads back the same', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.option(fc.integer({ min: 0, max: 128 })), (address, prefix) => {
        const text = prefix === null ? address : `${address}/${prefix}`;
        const parsed = parseIpValue(text);
        expect(parsed, text).not.toBeNull();
        expect(parseIpValue(parsed!.address)).toEqual({ address: parsed!.address, prefix: null, family: 6 });
      }),
    );
  });
});

describe('parseTimeValue', () => {
  const now = new Date('2026-11-29T18:00:00Z');

  it('reads times relative to now', () => {
    expect(parseTimeValue('now', now)).toEqual(now);
    expect(parseTimeValue('NOW', now)).toEqual(now);
    expect(parseTimeValue('now-15m', now)).toEqual(new Date('2026-11-29T17:45:00Z'));
    expect(parseTimeValue('now-24h', now)).toEqual(new Date('2026-11-28T18:00:00Z'));
    expect(parseTimeValue('now-7d', now)).toEqual(new Date('2026-11-22T18:00:00Z'));
    expect(parseTimeValue('now-2w', now)).toEqual(new Date('2026-11-15T18:00:00Z'));
    expect(parseTimeValue('now-30s', now)).toEqual(new Date('2026-11-29T17:59:30Z'));
    expect(parseTimeValue('now+1h', now)).toEqual(new Date('2026-11-29T19:00:00Z'));
  });

  it('reads ISO 8601 dates and times, UTC unless an offset is given', () => {
    expect(parseTimeValue('2026-11-29', now)).toEqual(new Date('2026-11-29T00:00:00Z'));
    expect(parseTimeValue('2026-11-29T10:00', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2026-11-29T10:00:00Z', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2026-11-29t10:00:00z', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2026-11-29 10:00:00', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2026-11-29T10:00:00.123Z', now)).toEqual(new Date('2026-11-29T10:00:00.123Z'));
    expect(parseTimeValue('2026-11-29T10:00:00.123456789Z', now)).toEqual(new Date('2026-11-29T10:00:00.123Z'));
    expect(parseTimeValue('2026-11-29T13:00:00+03:00', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2026-11-29T05:30:00-0430', now)).toEqual(new Date('2026-11-29T10:00:00Z'));
    expect(parseTimeValue('2024-02-29', now)).toEqual(new Date('2024-02-29T00:00:00Z'));
    expect(parseTimeValue('0001-01-01', now)?.getUTCFullYear()).toBe(1);
  });

  it('refuses what is not a time', () => {
    for (const text of [
      '',
      'today',
      'now-',
      'now-5',
      'now-5y',
      'now - 5m',
      'now-9999999999d',
      'now-999999999w',
      '2026-11-31',
      '2025-02-29',
      '2026-13-01',
      '2026-00-10',
      '0000-01-01',
      '2026-11-29T24:00',
      '2026-11-29T10:60',
      '2026-11-29T10:00:60',
      '2026-11-29T10',
      '2026-11-29T10:00+24:00',
      '2026-11-29T10:00+03:60',
      '26-11-29',
      '2026/11/29',
      '1732874400',
    ]) {
      expect(parseTimeValue(text, now), text).toBeNull();
    }
  });

  it('reads every accepted relative time into a valid date, whatever now is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('-', '+'),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.constantFrom('s', 'm', 'h', 'd', 'w'),
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (sign, amount, unit, when) => {
          const parsed = parseTimeValue(`now${sign}${amount}${unit}`, when);
          if (parsed) expect(Number.isNaN(parsed.getTime())).toBe(false);
        },
      ),
    );
  });
});
