import { describe, expect, it } from 'vitest';
import { ipAllowed, isValidIpRule, parseIpRule } from './ip-allow-list';

describe('IP allow-list', () => {
  it('allows everything when the list is empty', () => {
    expect(ipAllowed([], '203.0.113.9')).toBe(true);
    expect(ipAllowed(null, '2001:db8::1')).toBe(true);
  });

  it('matches single IPv4 addresses and CIDR ranges', () => {
    expect(ipAllowed(['203.0.113.9'], '203.0.113.9')).toBe(true);
    expect(ipAllowed(['203.0.113.9'], '203.0.113.10')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], '10.255.1.2')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '11.0.0.1')).toBe(false);
    expect(ipAllowed(['192.168.1.128/25'], '192.168.1.200')).toBe(true);
    expect(ipAllowed(['192.168.1.128/25'], '192.168.1.127')).toBe(false);
    expect(ipAllowed(['0.0.0.0/0'], '8.8.8.8')).toBe(true);
    expect(ipAllowed(['198.51.100.0/24', '127.0.0.1'], '127.0.0.1')).toBe(true);
  });

  it('matches IPv6 addresses and ranges, in any spelling', () => {
    expect(ipAllowed(['2001:db8::/32'], '2001:db8:ffff::1')).toBe(true);
    expect(ipAllowed(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(ipAllowed(['2001:0db8:0000:0000:0000:0000:0000:0001'], '2001:db8::1')).toBe(true);
    expect(ipAllowed(['::1'], '::1')).toBe(true);
    expect(ipAllowed(['fe80::/10'], 'fe80::1%eth0')).toBe(true);
    expect(ipAllowed(['2001:db8::/127'], '2001:db8::1')).toBe(true);
    expect(ipAllowed(['2001:db8::/128'], '2001:db8::1')).toBe(false);
  });

  it('treats IPv4-mapped IPv6 addresses as the IPv4 address they carry', () => {
    expect(ipAllowed(['127.0.0.1'], '::ffff:127.0.0.1')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(ipAllowed(['::ffff:10.0.0.0/104'], '10.9.9.9')).toBe(true);
    expect(ipAllowed(['10.0.0.0/8'], '::ffff:11.1.2.3')).toBe(false);
    // Families do not mix otherwise.
    expect(ipAllowed(['::/0'], '10.0.0.1')).toBe(false);
  });

  it('ignores malformed entries rather than opening the account', () => {
    for (const bad of [
      '',
      'nonsense',
      '10.0.0.0/33',
      '10.0.0/8',
      '2001:db8::/129',
      '1.2.3.4/x',
      '1.2.3.4/8/8',
      '::1::2',
    ])
      expect(isValidIpRule(bad)).toBe(false);
    expect(ipAllowed(['not an address'], '10.0.0.1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], 'garbage')).toBe(false);
    expect(parseIpRule(' 10.0.0.0/8 ')).toEqual({ bytes: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
  });
});
