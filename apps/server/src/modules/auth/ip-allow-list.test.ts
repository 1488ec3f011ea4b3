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
    expect(parseIpRule(' 10.0.0.0/8 ')).toEqual({ network: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseIpRule('2001:db8::1')).toEqual({ network: '2001:db8::1', prefix: 128, family: 'ipv6' });
    // A mapped range shorter than the mapped prefix has no IPv4 meaning.
    expect(isValidIpRule('::ffff:0:0/95')).toBe(false);
    expect(isValidIpRule('::ffff:0:0/96')).toBe(true);
  });

  it('matches IPv6 ranges at prefixes that do not fall on a group or byte', () => {
    expect(ipAllowed(['2001:db8:abcd:12::/63'], '2001:db8:abcd:13:ffff::1')).toBe(true);
    expect(ipAllowed(['2001:db8:abcd:12::/63'], '2001:db8:abcd:14::1')).toBe(false);
    expect(ipAllowed(['2001:db8::/33'], '2001:db8:7fff::1')).toBe(true);
    expect(ipAllowed(['2001:db8::/33'], '2001:db8:8000::1')).toBe(false);
    expect(ipAllowed(['::/0'], '2001:db8::1')).toBe(true);
    // IPv6 entries never admit an IPv4 caller, nor IPv4 entries an IPv6 one.
    expect(ipAllowed(['10.0.0.0/8', '0.0.0.0/0'], '2001:db8::1')).toBe(false);
    expect(ipAllowed(['2001:db8::/32', '::/0'], '192.0.2.1')).toBe(false);
  });

  it('reads IPv4-mapped IPv6 in every spelling, as address or as entry', () => {
    for (const mapped of ['::ffff:10.0.0.1', '::FFFF:10.0.0.1', '::ffff:a00:1', '0:0:0:0:0:ffff:10.0.0.1'])
      expect(ipAllowed(['10.0.0.0/24'], mapped)).toBe(true);
    expect(ipAllowed(['10.0.0.0/24'], '::ffff:10.0.1.1')).toBe(false);
    expect(ipAllowed(['::ffff:10.0.0.1'], '10.0.0.1')).toBe(true);
    expect(ipAllowed(['::ffff:a00:0/120'], '10.0.0.200')).toBe(true);
    expect(ipAllowed(['::ffff:a00:0/120'], '10.0.1.0')).toBe(false);
    expect(ipAllowed(['::ffff:10.0.0.1'], '::ffff:10.0.0.1')).toBe(true);
    // A mapped address is not the IPv6 address with the same leading bits.
    expect(ipAllowed(['::/8'], '::ffff:10.0.0.1')).toBe(false);
  });
});
