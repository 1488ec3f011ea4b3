import { describe, expect, it } from 'vitest';
import { groupObservables, incidentPivot } from './observables';

describe('incident observables', () => {
  it('leads IPs to network events, hosts to endpoint events and SHA-256 hashes to files', () => {
    expect(incidentPivot('ip', '10.0.0.5')).toBe('/investigation/network?ip=10.0.0.5');
    expect(incidentPivot('host', 'WS-07')).toBe('/investigation/endpoint-events?host_name=WS-07');
    const sha = 'A'.repeat(64);
    expect(incidentPivot('hash', sha)).toBe(`/investigation/files?sha256=${'a'.repeat(64)}`);
    expect(incidentPivot('hash', 'd41d8cd98f00b204e9800998ecf8427e')).toBe(
      '/investigation/endpoint-events?hash=d41d8cd98f00b204e9800998ecf8427e',
    );
    expect(incidentPivot('file', 'invoice.pdf')).toBeNull();
  });

  it('groups by kind in a fixed order without repeating values', () => {
    expect(
      groupObservables([
        { kind: 'domain', value: 'evil.example' },
        { kind: 'ip', value: '10.0.0.9' },
        { kind: 'host', value: 'ws-01' },
        { kind: 'ip', value: '10.0.0.10' },
        { kind: 'ip', value: '10.0.0.9' },
        { kind: 'zz', value: 'x' },
      ]),
    ).toEqual([
      { kind: 'ip', values: ['10.0.0.10', '10.0.0.9'] },
      { kind: 'host', values: ['ws-01'] },
      { kind: 'domain', values: ['evil.example'] },
      { kind: 'zz', values: ['x'] },
    ]);
  });
});
