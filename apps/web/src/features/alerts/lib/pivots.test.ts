import { describe, expect, it } from 'vitest';
import { mitreUrl, pivotOf } from './pivots';

describe('pivotOf', () => {
  it('sends each kind of observable to the page that can search it', () => {
    expect(pivotOf('ip', '10.0.0.5')).toEqual({ href: '/investigation/network?ip=10.0.0.5', target: 'network' });
    expect(pivotOf('domain', 'evil.example')?.href).toBe('/investigation/network?search=evil.example');
    expect(pivotOf('host', 'WS-01')).toEqual({
      href: '/investigation/endpoint-events?host_name=WS-01',
      target: 'endpoint',
    });
    const sha = 'A'.repeat(64);
    expect(pivotOf('hash', sha)).toEqual({ href: `/investigation/files?sha256=${'a'.repeat(64)}`, target: 'files' });
    expect(pivotOf('hash', 'b'.repeat(32))?.href).toBe(`/investigation/endpoint-events?hash=${'b'.repeat(32)}`);
    expect(pivotOf('email', 'a@b.example')?.target).toBe('mail');
    expect(pivotOf('registry', 'HKLM')).toBeNull();
  });
});

describe('mitreUrl', () => {
  it('links techniques and sub-techniques, nothing else', () => {
    expect(mitreUrl('T1059')).toBe('https://attack.mitre.org/techniques/T1059/');
    expect(mitreUrl('t1059.001')).toBe('https://attack.mitre.org/techniques/T1059/001/');
    expect(mitreUrl('javascript:alert(1)')).toBeNull();
  });

  it('links tactics, which Suricata rules name beside their techniques', () => {
    expect(mitreUrl('TA0001')).toBe('https://attack.mitre.org/tactics/TA0001/');
    expect(mitreUrl('ta0011')).toBe('https://attack.mitre.org/tactics/TA0011/');
    expect(mitreUrl('TA01')).toBeNull();
  });
});
