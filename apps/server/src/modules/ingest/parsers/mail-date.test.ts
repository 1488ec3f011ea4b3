import { describe, expect, it } from 'vitest';
import { parseMailDate } from './mail-date';

const iso = (header: string) => {
  const at = parseMailDate(header);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
};

describe('parseMailDate', () => {
  it('reads RFC 5322 dates with their zone', () => {
    expect(iso('Tue, 12 Mar 2024 15:01:50 +0100')).toBe('2024-03-12T14:01:50.000Z');
    expect(iso('12 Mar 2024 15:01 -0730')).toBe('2024-03-12T22:31:00.000Z');
    expect(iso('Tue, 12 Mar 2024 15:01:50 +0000 (UTC)')).toBe('2024-03-12T15:01:50.000Z');
  });

  it('leaves aside what follows the date-time, as a lenient reader does', () => {
    expect(iso('Wed, 13 Mar 2024 08:15:30 +0000-62495-238')).toBe('2024-03-13T08:15:30.000Z');
    expect(iso('Wed, 13 Mar 2024 08:15:30 +0200 garbage')).toBe('2024-03-13T06:15:30.000Z');
  });

  it('reads obsolete forms: two-digit years, zone names, comments, no zone, dashes', () => {
    expect(iso('Fri, 1 Jan 99 10:00:00 EST')).toBe('1999-01-01T15:00:00.000Z');
    expect(iso('1 Jan 05 10:00:00 GMT')).toBe('2005-01-01T10:00:00.000Z');
    expect(iso('Thu, (a comment) 4 Apr 2024 (more) 10:00:00 PDT')).toBe('2024-04-04T17:00:00.000Z');
    expect(iso('4 April 2024 10:00:00')).toBe('2024-04-04T10:00:00.000Z');
    expect(iso('04-Apr-2024 10:00:00 +0000')).toBe('2024-04-04T10:00:00.000Z');
    expect(iso('2024-04-04T10:00:00Z')).toBe('2024-04-04T10:00:00.000Z');
  });

  it('names no instant for what is not a date', () => {
    expect(iso('someday soon')).toBeNull();
    expect(iso('31 Feb 2024 10:00:00 +0000')).toBeNull();
    expect(iso('12 Foo 2024 10:00:00 +0000')).toBeNull();
    expect(iso('12 Mar 2024 25:00:00 +0000')).toBeNull();
    expect(iso('')).toBeNull();
  });
});
