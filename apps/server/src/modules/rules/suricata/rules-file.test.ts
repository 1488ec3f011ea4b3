import { describe, expect, it } from 'vitest';
import { addressMatches, parseAddress, type AddressExpr } from './addresses';
import { parseRulesFile } from './rules-file';

describe('rules files', () => {
  const file = [
    '# Rules for the test network',
    '',
    'alert tcp any any -> any 80 (msg:"first"; sid:1; rev:1;)',
    '# alert on anything strange, says the comment',
    '#alert udp any any -> any 53 (msg:"disabled one"; sid:2; rev:1;)',
    '## alert tcp any any -> any any (msg:"disabled too"; sid:5;)',
    'alert dnp3 any any -> any any (msg:"over two lines"; \\',
    '    sid:3; rev:2;)',
    'alert tcp any any -> any any (msg:"broken"; sid:4',
    'alert tcp any any -> any any (msg:"repeats sid 1"; sid:1;)',
    'alert tcp any any -> any any (msg:"same sid other gid"; gid:2; sid:1;)',
    'alert tcp any any -> any any (msg:"reuses the disabled sid"; sid:2;)',
    '   ',
  ].join('\n');

  it('keeps enabled rules and commented-out rules (disabled), with the line each starts on', () => {
    const { rules } = parseRulesFile(file);
    expect(rules.map(({ line, rule }) => [line, rule.sid, rule.gid, rule.enabled, rule.msg])).toEqual([
      [3, 1, 1, true, 'first'],
      [5, 2, 1, false, 'disabled one'],
      [6, 5, 1, false, 'disabled too'],
      [7, 3, 1, true, 'over two lines'],
      [11, 1, 2, true, 'same sid other gid'],
      [12, 2, 1, true, 'reuses the disabled sid'],
    ]);
    // The text of a disabled rule is the rule itself, without its comment mark.
    expect(rules[1]?.rule.text).toBe('alert udp any any -> any 53 (msg:"disabled one"; sid:2; rev:1;)');
    expect(rules[3]?.rule.text).toBe('alert dnp3 any any -> any any (msg:"over two lines";     sid:3; rev:2;)');
  });

  it('refuses a broken rule and a repeated sid with the line and the reason', () => {
    const { refused } = parseRulesFile(file);
    expect(refused).toEqual([
      {
        line: 9,
        reason: 'the rule does not end with ")" after its last option',
        text: 'alert tcp any any -> any any (msg:"broken"; sid:4',
      },
      {
        line: 10,
        reason: 'sid 1 (gid 1) is already used by the rule on line 3',
        text: 'alert tcp any any -> any any (msg:"repeats sid 1"; sid:1;)',
      },
    ]);
  });

  it('joins a commented-out rule over several lines, each with its mark', () => {
    const { rules } = parseRulesFile('#alert tcp any any -> any any (msg:"a"; \\\n#   sid:9;)\n');
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ line: 1, rule: { enabled: false, sid: 9 } });
  });

  it('reads Windows line ends and a byte-order mark', () => {
    const { rules, refused } = parseRulesFile(
      '\uFEFFalert tcp any any -> any any (sid:1;)\r\n\r\nalert tcp any any -> any any (sid:2;)\r\n',
    );
    expect(refused).toEqual([]);
    expect(rules.map((r) => [r.line, r.rule.sid])).toEqual([
      [1, 1],
      [3, 2],
    ]);
  });
});

describe('address matching', () => {
  const expr = (text: string): AddressExpr => {
    const parsed = parseAddress(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.value;
  };
  const vars = new Map<string, AddressExpr>([
    ['HOME_NET', expr('[10.0.0.0/8,192.168.0.0/16]')],
    ['LOOP', expr('$LOOP')],
  ]);

  it('matches single addresses, CIDR blocks and IPv6', () => {
    expect(addressMatches(expr('10.1.2.3'), '10.1.2.3', vars)).toBe(true);
    expect(addressMatches(expr('10.1.2.3'), '10.1.2.4', vars)).toBe(false);
    expect(addressMatches(expr('10.1.0.0/16'), '10.1.255.255', vars)).toBe(true);
    expect(addressMatches(expr('10.1.0.0/16'), '10.2.0.0', vars)).toBe(false);
    expect(addressMatches(expr('0.0.0.0/0'), '203.0.113.9', vars)).toBe(true);
    expect(addressMatches(expr('2001:db8::/32'), '2001:db8:ffff::1', vars)).toBe(true);
    expect(addressMatches(expr('2001:db8::/32'), '2001:db9::1', vars)).toBe(false);
    expect(addressMatches(expr('::ffff:10.0.0.0/120'), '::ffff:10.0.0.7', vars)).toBe(true);
    expect(addressMatches(expr('10.0.0.0/8'), '2001:db8::1', vars)).toBe(false);
  });

  it('resolves variables, negation and groups with exceptions', () => {
    expect(addressMatches(expr('$HOME_NET'), '192.168.5.5', vars)).toBe(true);
    expect(addressMatches(expr('$HOME_NET'), '8.8.8.8', vars)).toBe(false);
    expect(addressMatches(expr('!$HOME_NET'), '8.8.8.8', vars)).toBe(true);
    expect(addressMatches(expr('[$HOME_NET,!10.9.0.0/16]'), '10.9.1.1', vars)).toBe(false);
    expect(addressMatches(expr('[$HOME_NET,!10.9.0.0/16]'), '10.8.1.1', vars)).toBe(true);
    expect(addressMatches(expr('any'), '1.2.3.4', vars)).toBe(true);
  });

  it('matches nothing through a variable without a value or one defined by itself', () => {
    expect(addressMatches(expr('$DNS_SERVERS'), '10.0.0.1', vars)).toBe(false);
    expect(addressMatches(expr('$LOOP'), '10.0.0.1', vars)).toBe(false);
  });
});
