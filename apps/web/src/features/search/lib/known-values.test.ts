import { describe, expect, it } from 'vitest';
import { knownValues } from './known-values';
import { written } from './search-state';

describe('the values offered after field:', () => {
  it('sums each kind’s counts, most frequent first, then the usual values not seen', () => {
    const seen = [
      [
        { value: 'high', count: 3 },
        { value: 'low', count: 1 },
      ],
      [
        { value: 'low', count: 4 },
        { value: 'medium', count: 3 },
      ],
    ];
    expect(knownValues(seen, ['critical', 'high', 'medium', 'low', 'info'], '')).toEqual([
      { value: 'low', count: 5 },
      { value: 'high', count: 3 },
      { value: 'medium', count: 3 },
      { value: 'critical', count: null },
      { value: 'info', count: null },
    ]);
  });

  it('keeps those starting with what is typed, whatever the case, but not what is typed itself', () => {
    const seen = [
      [
        { value: 'WS-FIN-07', count: 3 },
        { value: 'WS-HR-02', count: 1 },
        { value: 'ws-fin', count: 1 },
      ],
    ];
    expect(knownValues(seen, [], 'ws-fin').map((known) => known.value)).toEqual(['WS-FIN-07']);
    expect(knownValues(seen, [], 'x')).toEqual([]);
    expect(knownValues(seen, [], '', 2)).toHaveLength(2);
  });

  it('are written as the language reads them back: quoted when they hold spaces or special characters', () => {
    expect(written('WS-FIN-07')).toBe('WS-FIN-07');
    expect(written('10.20.1.15')).toBe('10.20.1.15');
    expect(written('NT AUTHORITY\\SYSTEM')).toBe('"NT AUTHORITY\\\\SYSTEM"');
    expect(written('C:\\Temp\\a.exe')).toBe('"C:\\\\Temp\\\\a.exe"');
    expect(written('a*b')).toBe('"a*b"');
    expect(written('or')).toBe('"or"');
    expect(written('say "hi"')).toBe('"say \\"hi\\""');
  });
});
