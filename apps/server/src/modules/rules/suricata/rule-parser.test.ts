import { describe, expect, it } from 'vitest';
import { parseRule } from './rule-parser';
import type { SuricataRule } from './rule-types';

function ok(text: string): SuricataRule {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return parsed.value;
}

function refused(text: string): string {
  const parsed = parseRule(text);
  if (parsed.ok) throw new Error(`parsed: ${text}`);
  return parsed.reason;
}

describe('rule header', () => {
  it.each(['alert', 'pass', 'drop', 'reject', 'rejectsrc', 'rejectdst', 'rejectboth', 'config'])(
    'takes the action %s',
    (action) => {
      expect(ok(`${action} tcp any any -> any any (sid:1;)`).action).toBe(action);
    },
  );

  it('refuses an unknown action and an unknown protocol', () => {
    expect(refused('log tcp any any -> any any (sid:1;)')).toMatch(/"log" is not a rule action/);
    expect(refused('alert gopher any any -> any any (sid:1;)')).toMatch(/"gopher" is not a protocol/);
  });

  it('takes packet and application-layer protocols', () => {
    for (const protocol of [
      'ip',
      'udp',
      'icmp',
      'pkthdr',
      'http',
      'http2',
      'tls',
      'dns',
      'smb',
      'bittorrent-dht',
      'krb5',
    ]) {
      expect(ok(`alert ${protocol} any any -> any any (sid:1;)`).protocol).toBe(protocol);
    }
  });

  it.each(['->', '<>', '=>'])('takes the direction %s', (direction) => {
    expect(ok(`alert tcp any any ${direction} any any (sid:1;)`).direction).toBe(direction);
  });

  it('refuses a wrong direction or a missing part', () => {
    expect(refused('alert tcp any any <- any any (sid:1;)')).toMatch(/"<-" is not a direction/);
    expect(refused('alert tcp any any -> any (sid:1;)')).toMatch(/7 parts\), this one has 6/);
  });

  it('reads variables, negation, groups and CIDR blocks in addresses', () => {
    const rule = ok(
      'alert tcp [$HOME_NET, !10.1.0.0/16,[192.168.1.1, 2001:db8::/32]] any -> !$EXTERNAL_NET any (sid:1;)',
    );
    expect(rule.src).toEqual({
      kind: 'group',
      items: [
        { kind: 'var', name: 'HOME_NET' },
        { kind: 'not', expr: { kind: 'ip', address: '10.1.0.0', prefix: 16, family: 4 } },
        {
          kind: 'group',
          items: [
            { kind: 'ip', address: '192.168.1.1', prefix: 32, family: 4 },
            { kind: 'ip', address: '2001:db8::', prefix: 32, family: 6 },
          ],
        },
      ],
    });
    expect(rule.dst).toEqual({ kind: 'not', expr: { kind: 'var', name: 'EXTERNAL_NET' } });
  });

  it('reads port ranges, negation and groups', () => {
    const rule = ok('alert tcp any [80,443,8000:8100,!8080] -> any !1024: (sid:1;)');
    expect(rule.srcPort).toEqual({
      kind: 'group',
      items: [
        { kind: 'range', from: 80, to: 80 },
        { kind: 'range', from: 443, to: 443 },
        { kind: 'range', from: 8000, to: 8100 },
        { kind: 'not', expr: { kind: 'range', from: 8080, to: 8080 } },
      ],
    });
    expect(rule.dstPort).toEqual({ kind: 'not', expr: { kind: 'range', from: 1024, to: 65535 } });
    expect(ok('alert tcp any :1023 -> any $HTTP_PORTS (sid:1;)').srcPort).toEqual({ kind: 'range', from: 0, to: 1023 });
  });

  it('refuses bad addresses and ports with what is wrong', () => {
    expect(refused('alert tcp 10.0.0.300 any -> any any (sid:1;)')).toMatch(
      /source address: "10.0.0.300" is not an IP address/,
    );
    expect(refused('alert tcp 10.0.0.0/33 any -> any any (sid:1;)')).toMatch(/prefix outside 0–32/);
    expect(refused('alert tcp any 70000 -> any any (sid:1;)')).toMatch(/source port: "70000" is not a port number/);
    expect(refused('alert tcp any 90:80 -> any any (sid:1;)')).toMatch(/starts after it ends/);
    expect(refused('alert tcp [1.1.1.1 any -> any any (sid:1;)')).toMatch(
      /brackets of a group in the header do not balance/,
    );
    expect(refused('alert tcp [1.1.1.1]] any -> any any (sid:1;)')).toMatch(
      /brackets of a group in the header do not balance/,
    );
    expect(refused('alert tcp !any any -> any any (sid:1;)')).toMatch(/"!any" as address matches nothing/);
    expect(refused('alert tcp any any -> [1.1.1.1,] any (sid:1;)')).toMatch(/has an empty item/);
    expect(refused('alert tcp $HOME-NET any -> any any (sid:1;)')).toMatch(/not a valid variable name/);
  });
});

describe('rule options', () => {
  const full =
    'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET MALWARE Test \\"quoted\\" \\; semi \\\\ slash"; ' +
    'flow:established,to_server; content:"GET |20 2F|x"; http.uri; content:!"evil|3b|"; ' +
    'reference:url,example.com/a,b; reference:cve,2024-1234; classtype:trojan-activity; priority:2; ' +
    'gid:3; sid:2000001; rev:7; metadata:mitre_tactic_id TA0002, mitre_technique_id T1059, mitre_technique_id T1059.001, signature_severity Major; ' +
    'threshold: type limit, track by_src, count 1, seconds 60; flowbits:set,ET.test; flowbits:isset,a|b; flowbits:noalert; target:dest_ip;)';

  it('extracts msg, sid, rev, gid, classtype, priority and references', () => {
    const rule = ok(full);
    expect(rule).toMatchObject({
      msg: 'ET MALWARE Test "quoted" ; semi \\ slash',
      sid: 2000001,
      rev: 7,
      gid: 3,
      classtype: 'trojan-activity',
      priority: 2,
      target: 'dest_ip',
      noalert: true,
      enabled: true,
      text: full,
    });
    expect(rule.references).toEqual([
      { type: 'url', value: 'example.com/a,b' },
      { type: 'cve', value: '2024-1234' },
    ]);
  });

  it('reads metadata pairs and the ATT&CK ids they name', () => {
    const rule = ok(full);
    expect(rule.metadata).toEqual({
      mitre_tactic_id: ['TA0002'],
      mitre_technique_id: ['T1059', 'T1059.001'],
      signature_severity: ['Major'],
    });
    expect(rule.mitreTechniqueIds).toEqual(['T1059', 'T1059.001']);
    expect(rule.mitreTacticIds).toEqual(['TA0002']);
    expect(refused('alert tcp any any -> any any (metadata:lonely; sid:1;)')).toMatch(/has a key but no value/);
  });

  it('reads threshold, flowbits and content with hex and negation', () => {
    const rule = ok(full);
    expect(rule.threshold).toEqual({ type: 'limit', track: 'by_src', count: 1, seconds: 60, multiplier: null });
    expect(rule.flowbits).toEqual([
      { command: 'set', names: ['ET.test'], operator: null },
      { command: 'isset', names: ['a', 'b'], operator: '|' },
      { command: 'noalert', names: [], operator: null },
    ]);
    expect(rule.contents).toEqual([
      { negated: false, hex: Buffer.from('GET  /x').toString('hex'), text: 'GET |20 2F|x' },
      { negated: true, hex: Buffer.from('evil;').toString('hex'), text: 'evil|3b|' },
    ]);
  });

  it('keeps every option as written, in order, including the ones it does not interpret', () => {
    const rule = ok(full);
    expect(rule.options.map((o) => o.name)).toEqual([
      'msg',
      'flow',
      'content',
      'http.uri',
      'content',
      'reference',
      'reference',
      'classtype',
      'priority',
      'gid',
      'sid',
      'rev',
      'metadata',
      'threshold',
      'flowbits',
      'flowbits',
      'flowbits',
      'target',
    ]);
    expect(rule.options[1]).toEqual({ name: 'flow', value: 'established,to_server' });
    expect(rule.options[3]).toEqual({ name: 'http.uri', value: null });
  });

  it('defaults gid to 1 and leaves absent fields empty', () => {
    const rule = ok('alert tcp any any -> any any (sid:5;)');
    expect(rule).toMatchObject({ gid: 1, rev: null, msg: null, classtype: null, priority: null, threshold: null });
    expect(rule.mitreTechniqueIds).toEqual([]);
  });

  it('keeps a ; or a ) inside quotes and an escaped ; outside them', () => {
    const rule = ok('alert tcp any any -> any any (msg:"a; b) c"; pcre:"/x;y\\)/i"; content:"a\\;b"; sid:1;)');
    expect(rule.msg).toBe('a; b) c');
    expect(rule.options[1]).toEqual({ name: 'pcre', value: '"/x;y\\)/i"' });
    expect(rule.contents[0]?.hex).toBe(Buffer.from('a;b').toString('hex'));
  });

  it('reads detection_filter and backoff thresholds', () => {
    expect(
      ok(
        'alert tcp any any -> any any (detection_filter:track by_dst, count 10, seconds 60, unique_on dst_port; sid:1;)',
      ).detectionFilter,
    ).toEqual({
      track: 'by_dst',
      count: 10,
      seconds: 60,
      uniqueOn: 'dst_port',
    });
    expect(
      ok('alert tcp any any -> any any (threshold:type backoff, track by_flow, count 1, multiplier 10; sid:1;)')
        .threshold,
    ).toEqual({
      type: 'backoff',
      track: 'by_flow',
      count: 1,
      seconds: null,
      multiplier: 10,
    });
  });

  it.each([
    ['alert tcp any any -> any any (msg:"x";)', /has no sid/],
    ['alert tcp any any -> any any (sid:0;)', /sid must be a whole number from 1/],
    ['alert tcp any any -> any any (sid:abc;)', /sid must be a whole number/],
    ['alert tcp any any -> any any (sid:1; sid:2;)', /sid is given twice/],
    ['alert tcp any any -> any any (msg:"open; sid:1;)', /never closes/],
    ['alert tcp any any -> any any (msg:"x"; sid:1)', /"sid" is not ended with ";"/],
    ['alert tcp any any -> any any (msg:"x"; sid:1;', /does not end with "\)"/],
    ['alert tcp any any -> any any', /has no options/],
    ['alert tcp any any -> any any (msg:"x";; sid:1;)', /empty option/],
    ['alert tcp any any -> any any (content:"|4G|"; sid:1;)', /"G" is not a hex digit/],
    ['alert tcp any any -> any any (content:"|414|"; sid:1;)', /odd number of digits/],
    ['alert tcp any any -> any any (content:"|41"; sid:1;)', /never closed/],
    ['alert tcp any any -> any any (content:"a\\nb"; sid:1;)', /not an escape content allows/],
    ['alert tcp any any -> any any (content:abc; sid:1;)', /must be in double quotes/],
    [
      'alert tcp any any -> any any (threshold:type often, track by_src, count 1, seconds 1; sid:1;)',
      /threshold type must be/,
    ],
    [
      'alert tcp any any -> any any (threshold:type limit, track by_port, count 1, seconds 1; sid:1;)',
      /cannot track "by_port"/,
    ],
    ['alert tcp any any -> any any (threshold:type limit, track by_src, count 1; sid:1;)', /threshold seconds must be/],
    [
      'alert tcp any any -> any any (threshold:type backoff, track by_src, count 1, multiplier 2; sid:1;)',
      /cannot track "by_src"/,
    ],
    ['alert tcp any any -> any any (flowbits:flip,x; sid:1;)', /no command "flip"/],
    ['alert tcp any any -> any any (flowbits:set,a&b; sid:1;)', /only isset and isnotset/],
    ['alert tcp any any -> any any (flowbits:set; sid:1;)', /needs a flowbit name/],
    ['alert tcp any any -> any any (target:src; sid:1;)', /target must be src_ip or dest_ip/],
    ['alert tcp any any -> any any (priority:0; sid:1;)', /priority must be a whole number from 1 to 255/],
    ['alert tcp any any -> any any (reference:nothing; sid:1;)', /must be written "type,value"/],
    ['alert tcp any any -> any any (msg; sid:1;)', /msg needs a value/],
    [
      'alert tcp any any -> any any (threshold:type limit, track by_src, count 1, seconds 1; detection_filter:track by_src, count 1, seconds 1; sid:1;)',
      /both threshold and detection_filter/,
    ],
  ])('refuses %s', (text, reason) => {
    expect(refused(text)).toMatch(reason);
  });
});
