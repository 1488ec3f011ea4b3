import { describe, expect, it } from 'vitest';
import { effectiveRange, readSearchState, withTerm, writeSearchState } from './search-state';

describe('search state in the URL', () => {
  it('reads and writes the same search, kinds in a fixed order, dropping what it does not know', () => {
    const params = new URLSearchParams(
      'kind=alerts&kind=network&kind=nonsense&kind=network&q=src_ip%3A+10.0.0.0%2F8&from=2026-11-01T00:00:00.000Z&to=bad',
    );
    const state = readSearchState(params);
    expect(state).toEqual({
      kinds: ['network', 'alerts'],
      query: 'src_ip: 10.0.0.0/8',
      from: '2026-11-01T00:00:00.000Z',
      to: undefined,
    });
    expect(writeSearchState(state).toString()).toBe(
      'kind=network&kind=alerts&q=src_ip%3A+10.0.0.0%2F8&from=2026-11-01T00%3A00%3A00.000Z',
    );
    expect(readSearchState(writeSearchState(state))).toEqual(state);
  });

  it('searches network and endpoint events of the last day when the URL says nothing', () => {
    const state = readSearchState(new URLSearchParams(''));
    expect(state.kinds).toEqual(['network', 'endpoint']);
    const now = Date.parse('2026-11-29T12:00:00.000Z');
    expect(effectiveRange(state, now)).toEqual({ from: '2026-11-28T12:00:00.000Z', to: '2026-11-29T12:00:00.000Z' });
  });

  it('adds a pivot term, quoting values that need it and keeping an or together', () => {
    expect(withTerm('', 'src_ip', '10.0.0.5')).toBe('src_ip: 10.0.0.5');
    expect(withTerm('proto: TCP', 'host_name', 'WS 01')).toBe('proto: TCP and host_name: "WS 01"');
    expect(withTerm('a or b', 'file_path', 'C:\\Temp\\x.exe')).toBe('(a or b) and file_path: "C:\\\\Temp\\\\x.exe"');
    expect(withTerm('x', 'user_name', 'or')).toBe('x and user_name: "or"');
  });
});
