import type { SearchHit } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { alertTitle, detectionOf, observablesOf, runCompanies } from './saved-search-runs';

const hit = (kind: SearchHit['kind'], id: number, event: Record<string, unknown>): SearchHit => ({
  kind,
  id,
  company_id: 7,
  ts: `2026-11-29T10:00:0${id}.000Z`,
  event,
});

describe('saved search runs', () => {
  it('fills in the name and the count of an alert title', () => {
    expect(alertTitle('{{name}}: {{count}} hits', 'Beacons', 3)).toBe('Beacons: 3 hits');
    expect(alertTitle('{{ count }} × {{name}} ({{name}})', 'X', 1)).toBe('1 × X (X)');
    expect(alertTitle('No placeholders {{other}}', 'X', 1)).toBe('No placeholders {{other}}');
  });

  it('searches the chosen companies when shared with companies, else its own company', () => {
    expect(runCompanies({ sharing: 'companies', company_ids: [3, 4], company_id: 1 })).toEqual([3, 4]);
    expect(runCompanies({ sharing: 'company', company_ids: [], company_id: 1 })).toEqual([1]);
    expect(runCompanies({ sharing: 'private', company_ids: [], company_id: 2 })).toEqual([2]);
  });

  it('takes observables from the hits once each', () => {
    const found = observablesOf([
      hit('network', 1, { src_ip: '10.0.0.1', dest_ip: '192.0.2.4' }),
      hit('network', 2, { src_ip: '10.0.0.1', dest_ip: null }),
      hit('endpoint', 3, { host: { name: 'WS-1' }, user: { name: 'jdoe' } }),
      hit('mail', 4, { from: { address: 'a@example.net' } }),
    ]);
    expect(found).toEqual([
      { kind: 'ip', value: '10.0.0.1', role: 'src_ip' },
      { kind: 'ip', value: '192.0.2.4', role: 'dest_ip' },
      { kind: 'host', value: 'WS-1', role: 'host.name' },
      { kind: 'user', value: 'jdoe', role: 'user.name' },
      { kind: 'email', value: 'a@example.net', role: 'mail.from' },
    ]);
  });

  it('raises one alert per run and company: the template, its newest hit, a key of its own', () => {
    const saved = {
      id: 5,
      name: 'Beacons',
      query: 'dest_port: 4444',
      alert: { severity: 'high' as const, title: '{{name}} ({{count}})', mitre: ['T1071'] },
    };
    const hits = [hit('network', 2, { dest_port: 4444 }), hit('network', 1, { dest_port: 4444 })];
    const first = detectionOf(saved, 7, 2, hits, new Date('2026-11-29T10:05:00Z'));
    const second = detectionOf(saved, 7, 2, hits, new Date('2026-11-29T10:20:00Z'));
    expect(first).toMatchObject({
      companyId: 7,
      title: 'Beacons (2)',
      severity: 'high',
      mitre: ['T1071'],
      source: { type: 'search', savedSearchId: 5, name: 'Beacons' },
      event: { kind: 'network', id: 2 },
    });
    expect(first.dedupKey).not.toBe(second.dedupKey);
  });
});
