import { describe, expect, it } from 'vitest';
import { alertsUrl, graphUrl, networkEventsUrl, observablePivot, withQuery } from './pivots';

describe('pivot links', () => {
  it('keeps API filter names, repeats arrays and leaves empty values out', () => {
    expect(withQuery('/x', { a: 'b c', list: ['1', 2], empty: '', none: undefined })).toBe('/x?a=b+c&list=1&list=2');
    expect(withQuery('/x', {})).toBe('/x');
    expect(alertsUrl({ severity: ['high', 'critical'], status: 'new' })).toBe(
      '/alerts?severity=high&severity=critical&status=new',
    );
    expect(graphUrl({ incident: 7 })).toBe('/graph?incident=7');
    expect(networkEventsUrl({ ip: '10.0.0.5', ts_from: '2026-11-01T00:00:00Z' })).toBe(
      '/investigation/network?ip=10.0.0.5&ts_from=2026-11-01T00%3A00%3A00Z',
    );
  });

  it('sends each kind of observable to the page that can search it', () => {
    expect(observablePivot('ip', '1.2.3.4')).toBe('/investigation/network?ip=1.2.3.4');
    expect(observablePivot('host', 'WS-01')).toBe('/investigation/endpoint-events?host_name=WS-01');
    expect(observablePivot('sha256', 'ab'.repeat(32))).toBe(`/investigation/files?sha256=${'ab'.repeat(32)}`);
    expect(observablePivot('domain', 'evil.example')).toBe('/investigation/network?search=evil.example');
    expect(observablePivot('mystery', 'x')).toBeNull();
  });
});
