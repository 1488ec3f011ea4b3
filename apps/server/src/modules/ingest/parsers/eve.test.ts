import { networkEventSchema, type NetworkEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { eveSeverity, parseEveLine, parseEveLines } from './eve';
import {
  ALERT,
  ANOMALY,
  DNS_V1_ANSWER,
  DNS_V1_QUERY,
  DNS_V2_ANSWER,
  DNS_V3_REQUEST,
  FILEINFO,
  FLOW,
  HTTP,
  DHCP,
  SMTP,
  SSH,
  STATS,
  TLS,
} from './fixtures/eve';

function one(record: object | string): NetworkEvent {
  const [result] = parseEveLines(typeof record === 'string' ? record : JSON.stringify(record));
  if (result === undefined || !result.ok) throw new Error(`expected an event, got ${JSON.stringify(result)}`);
  expect(networkEventSchema.parse(result.event)).toEqual(result.event);
  return result.event;
}

function reason(line: string): string {
  const [result] = parseEveLines(line);
  if (result === undefined || result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.reason;
}

describe('EVE alerts', () => {
  it('normalises the common fields, the alert and the flow it carries', () => {
    const event = one(ALERT);
    expect(event).toMatchObject({
      timestamp: '2024-03-12T14:02:11.482913Z',
      event_type: 'alert',
      src_ip: '10.20.1.15',
      src_port: 49732,
      dest_ip: '203.0.113.45',
      dest_port: 80,
      proto: 'TCP',
      app_proto: 'http',
      flow_id: '1851472349878392',
      community_id: '1:R7g0GrLJCmAdhDY4KPN3fUzZ8mU=',
      host: 'sensor-dmz-01',
      severity: 'medium',
      alert: {
        action: 'allowed',
        gid: 1,
        signature_id: 2024897,
        rev: 2,
        signature: 'ET USER_AGENTS Go HTTP Client User-Agent',
        category: 'Potentially Bad Traffic',
        severity: 2,
        mitre_tactic_ids: ['TA0011'],
        mitre_technique_ids: ['T1071', 'T1071.001'],
        metadata: {
          attack_target: ['Client_Endpoint'],
          mitre_tactic_id: ['TA0011'],
          mitre_technique_id: ['T1071', 'T1071.001', 'not-an-id'],
          signature_severity: ['Informational'],
        },
      },
      http: { hostname: 'update.example-cdn.net', url: '/api/v2/check?id=77', status: 200, length: 512 },
      flow: { pkts_toserver: 4, bytes_toclient: 1048, start: '2024-03-12T14:02:11.40122Z', end: null, state: null },
    });
    expect(event.raw).toEqual(ALERT);
  });

  it('maps EVE severity onto our scale', () => {
    expect([1, 2, 3, 4, 5, 255, null].map((s) => eveSeverity(s))).toEqual([
      'high',
      'medium',
      'low',
      'info',
      'info',
      'info',
      'low',
    ]);
    const noSeverity = { ...ALERT, alert: { ...ALERT.alert, severity: undefined } };
    expect(one(noSeverity)).toMatchObject({ severity: 'low', alert: { severity: null } });
    expect(one({ ...ALERT, alert: { ...ALERT.alert, severity: 1 } }).severity).toBe('high');
  });

  it('refuses an alert without a signature id or alert object', () => {
    expect(reason(JSON.stringify({ ...ALERT, alert: { signature: 'x' } }))).toBe('line 1: missing alert.signature_id');
    expect(reason(JSON.stringify({ ...ALERT, alert: undefined }))).toBe(
      'line 1: an alert record needs an alert object',
    );
    expect(reason(JSON.stringify({ ...ALERT, alert: { ...ALERT.alert, severity: 0 } }))).toMatch(
      /^line 1: alert.severity must be a whole number from 1 to 255, found 0$/,
    );
  });

  it('keeps flow ids above 2^53 exactly, as decimal strings', () => {
    const line = JSON.stringify({ ...ALERT, flow_id: 0 }).replace('"flow_id":0', '"flow_id":18446744073709551615');
    const big = one(line);
    expect(big.flow_id).toBe('18446744073709551615');
    expect(big.raw.flow_id).toBe('18446744073709551615');
    expect(one(ALERT).raw.flow_id).toBe(1851472349878392);
    const nested = line.replace('"alert":{', '"alert":{"flow_id":1,');
    expect(one(nested).flow_id).toBe('18446744073709551615');
    expect(one({ ...ALERT, flow_id: '1234567890123456789' }).flow_id).toBe('1234567890123456789');
    const tooBig = line.replace('18446744073709551615', '18446744073709551616');
    expect(reason(tooBig)).toMatch(/^line 1: flow_id must be a whole number from 0 to 2\^64-1/);
    expect(reason(JSON.stringify({ ...ALERT, flow_id: -5 }))).toMatch(/flow_id/);
    expect(reason(JSON.stringify({ ...ALERT, flow_id: 1.5 }))).toMatch(/flow_id/);
  });
});

describe('EVE event types', () => {
  it('flow', () => {
    expect(one(FLOW)).toMatchObject({
      event_type: 'flow',
      severity: null,
      alert: null,
      flow: {
        pkts_toserver: 18,
        pkts_toclient: 22,
        bytes_toserver: 2950,
        bytes_toclient: 18422,
        start: '2024-03-12T14:03:58.730615Z',
        end: '2024-03-12T14:04:29.11831Z',
        state: 'closed',
        reason: 'timeout',
      },
    });
  });

  it('dns in versions 1, 2 and 3', () => {
    expect(one(DNS_V2_ANSWER).dns).toEqual({
      type: 'answer',
      rrname: 'login.example-phish.com',
      rrtype: 'A',
      rcode: 'NOERROR',
      answers: [
        { rrname: 'login.example-phish.com', rrtype: 'CNAME', ttl: 300, rdata: 'edge.example-cdn.net' },
        { rrname: 'edge.example-cdn.net', rrtype: 'A', ttl: 60, rdata: '192.0.2.44' },
      ],
    });
    expect(one(DNS_V1_QUERY).dns).toEqual({
      type: 'query',
      rrname: 'login.example-phish.com',
      rrtype: 'A',
      rcode: null,
      answers: [],
    });
    expect(one(DNS_V1_ANSWER).dns?.answers).toEqual([
      { rrname: 'login.example-phish.com', rrtype: 'A', ttl: 60, rdata: '192.0.2.44' },
    ]);
    expect(one(DNS_V3_REQUEST).dns).toMatchObject({ type: 'request', rrname: 'example.org', rrtype: 'AAAA' });
    const { answers: _answers, ...groupedOnly } = DNS_V2_ANSWER.dns;
    expect(one({ ...DNS_V2_ANSWER, dns: groupedOnly }).dns?.answers).toEqual([
      { rrname: null, rrtype: 'CNAME', ttl: null, rdata: 'edge.example-cdn.net' },
      { rrname: null, rrtype: 'A', ttl: null, rdata: '192.0.2.44' },
    ]);
  });

  it('http', () => {
    expect(one(HTTP).http).toEqual({
      hostname: '203.0.113.80',
      url: '/payload/stage2.bin',
      http_method: 'GET',
      status: 200,
      http_user_agent: 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.19041.3031',
      http_content_type: 'application/octet-stream',
      length: 73802,
      protocol: 'HTTP/1.1',
      http_refer: null,
      redirect: null,
    });
  });

  it('tls with JA3 and JA3S', () => {
    expect(one(TLS).tls).toEqual({
      sni: 'cdn-update.example.org',
      version: 'TLS 1.2',
      subject: 'CN=cdn-update.example.org',
      issuerdn: "C=US, O=Let's Encrypt, CN=R3",
      fingerprint: '4e:1f:9a:3b:55:7c:10:2d:ee:41:0a:93:61:5c:7f:8e:12:34:56:78',
      ja3: '72a589da586844d7f0818ce684948eea',
      ja3s: 'f4febc55ea12b31ae17cfb7e614afda8',
      ja4: null,
      serial: '04:1A:9C:55:30:FE:8B:20:6D:91:E0:2B:C3:47:AB:10:22:90',
      notbefore: '2024-02-01T00:00:00Z',
      notafter: '2024-05-01T00:00:00Z',
    });
  });

  it('fileinfo, with hashes in lower case', () => {
    expect(one(FILEINFO)).toMatchObject({
      fileinfo: {
        filename: '/payload/stage2.bin',
        magic: 'PE32 executable (GUI) Intel 80386, for MS Windows',
        size: 73802,
        md5: '5d41402abc4b2a76b9719d911017c592',
        sha1: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d',
        sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
        state: 'CLOSED',
        stored: false,
        gaps: false,
      },
      http: { url: '/payload/stage2.bin' },
    });
    expect(reason(JSON.stringify({ ...FILEINFO, fileinfo: { ...FILEINFO.fileinfo, md5: 'abc' } }))).toBe(
      'line 1: fileinfo.md5 is not an MD5 hash ("abc")',
    );
  });

  it('anomaly', () => {
    expect(one(ANOMALY).anomaly).toEqual({
      type: 'applayer',
      event: 'APPLAYER_DETECT_PROTOCOL_ONLY_ONE_DIRECTION',
      layer: 'proto_detect',
    });
  });

  it('keeps other event types by name, with what they have', () => {
    const smb = { ...FLOW, event_type: 'smb', smb: { command: 'SMB2_COMMAND_CREATE', filename: 'share\\a.txt' } };
    expect(one(smb)).toMatchObject({ event_type: 'smb', src_ip: FLOW.src_ip, dns: null, stats: null, raw: smb });
  });

  it('stats: the counters an operator reads first, and no network fields', () => {
    expect(one(STATS)).toMatchObject({
      event_type: 'stats',
      src_ip: null,
      flow_id: null,
      dns: null,
      raw: STATS,
      stats: {
        uptime: 3600,
        capture_kernel_packets: 1200441,
        capture_kernel_drops: 0,
        capture_errors: null,
        decoder_pkts: null,
        flows: null,
        app_layer_errors: null,
      },
    });
    expect(one({ ...FLOW, stats: { uptime: 1 } }).stats).toBeNull();
  });

  it('tcp flags of a flow, by name and in hex', () => {
    expect(one(FLOW).tcp).toEqual({
      tcp_flags: '1b',
      tcp_flags_ts: null,
      tcp_flags_tc: null,
      flags: ['syn', 'fin', 'psh', 'ack'],
      state: 'closed',
    });
  });

  it('ssh client and server software', () => {
    expect(one(SSH).ssh).toEqual({
      client: { proto_version: '2.0', software_version: 'PuTTY_Release_0.78', hassh: null },
      server: { proto_version: '2.0', software_version: 'OpenSSH_7.4', hassh: null },
    });
    expect(one({ ...SSH, ssh: { server: { software_version: 'dropbear_2022.83' } } }).ssh).toEqual({
      client: null,
      server: { proto_version: null, software_version: 'dropbear_2022.83', hassh: null },
    });
  });

  it('dhcp: the device, the address it was given and its host name; 0.0.0.0 is no address', () => {
    expect(one(DHCP).dhcp).toEqual({
      type: 'reply',
      id: 1021331,
      dhcp_type: 'ack',
      client_mac: '00:1a:2b:3c:4d:5e',
      client_ip: null,
      assigned_ip: '10.20.1.57',
      requested_ip: null,
      relay_ip: null,
      next_server_ip: null,
      hostname: 'WS-FIN-07',
      lease_time: 3600,
      subnet_mask: '255.255.255.0',
      routers: ['10.20.1.1'],
      dns_servers: [],
    });
    expect(one({ ...DHCP, dhcp: { ...DHCP.dhcp, client_mac: '00-1A-2B-3C-4D-5E' } }).dhcp?.client_mac).toBe(
      '00:1a:2b:3c:4d:5e',
    );
  });

  it('smtp: the envelope and the message it carried', () => {
    expect(one(SMTP).smtp).toEqual({
      helo: 'mail.example.net',
      mail_from: '<billing@example.net>',
      rcpt_to: ['<ap@example.com>'],
      from: '<billing@example.net>',
      to: ['<ap@example.com>'],
      cc: [],
      subject: null,
      attachments: ['invoice.zip'],
      status: 'PARSE_DONE',
    });
    expect(one({ ...SMTP, smtp: undefined }).smtp).toMatchObject({
      helo: null,
      rcpt_to: [],
      from: '<billing@example.net>',
    });
  });
});

describe('EVE refusals', () => {
  const base = JSON.stringify(HTTP);
  it.each([
    [{ ...HTTP, timestamp: undefined }, 'line 1: missing timestamp'],
    [
      { ...HTTP, timestamp: 'yesterday' },
      'line 1: timestamp is not a timestamp ("yesterday"); send ISO 8601, e.g. 2024-05-06T10:11:12Z',
    ],
    [{ ...HTTP, timestamp: '2024-02-30T00:00:00Z' }, /timestamp is not a timestamp/],
    [{ ...HTTP, event_type: undefined }, 'line 1: missing event_type'],
    [{ ...HTTP, event_type: ['http'] }, 'line 1: event_type must be text, found a list'],
    [{ ...HTTP, src_ip: '10.20.1.300' }, 'line 1: src_ip is not an IP address ("10.20.1.300")'],
    [{ ...HTTP, dest_ip: 17 }, 'line 1: dest_ip is not an IP address (17)'],
    [{ ...HTTP, src_port: 70000 }, 'line 1: src_port must be a whole number from 0 to 65535, found 70000'],
    [{ ...HTTP, dest_port: '80a' }, 'line 1: dest_port must be a whole number from 0 to 65535, found "80a"'],
    [{ ...HTTP, http: 'GET /' }, 'line 1: http must be an object, found "GET /"'],
    [{ ...HTTP, http: { ...HTTP.http, status: 'OK' } }, /^line 1: http.status must be a whole number from 0 to 999/],
    [{ ...HTTP, flow: { bytes_toserver: -1 } }, /^line 1: flow.bytes_toserver must be a whole number of 0 or more/],
    [{ ...DHCP, dhcp: { client_mac: 'laptop' } }, 'line 1: dhcp.client_mac is not a MAC address ("laptop")'],
    [{ ...DHCP, dhcp: { assigned_ip: '10.20.1' } }, 'line 1: dhcp.assigned_ip is not an IP address ("10.20.1")'],
    [{ ...FILEINFO, fileinfo: { stored: 'yes' } }, 'line 1: fileinfo.stored must be true or false, found "yes"'],
    [{ ...SSH, ssh: { client: 'PuTTY' } }, 'line 1: ssh.client must be an object, found "PuTTY"'],
    [{ ...SMTP, email: ['x'] }, 'line 1: email must be an object, found a list'],
    [{ ...TLS, tls: { notafter: 'soon' } }, /^line 1: tls.notafter is not a timestamp/],
    [{ ...STATS, stats: undefined }, 'line 1: a stats record needs a stats object'],
    [{ ...STATS, stats: 42 }, 'line 1: stats must be an object, found 42'],
    [{ ...STATS, stats: { uptime: -3 } }, 'line 1: stats.uptime must be a count from 0 to 2^63-1, found -3'],
    [
      { ...STATS, stats: { decoder: { pkts: 'many' } } },
      /^line 1: stats.decoder.pkts must be a count .*, found "many"$/,
    ],
    [
      { ...STATS, stats: { decoder: { bytes: 1e19 } } },
      /^line 1: stats.decoder.bytes must be a count from 0 to 2\^63-1/,
    ],
    [
      { ...ALERT, alert: { ...ALERT.alert, metadata: ['T1071'] } },
      'line 1: alert.metadata must be an object, found a list',
    ],
  ])('%#: %j', (record, expected) => {
    const got = reason(JSON.stringify(record));
    if (typeof expected === 'string') expect(got).toBe(expected);
    else expect(got).toMatch(expected);
  });

  it('says what is wrong with lines that are not JSON objects', () => {
    const results = parseEveLines(
      [
        base,
        '{"timestamp": "2024-03-12T14:07:02Z", "event_type": "http"',
        '[1, 2]',
        '"text"',
        'null',
        '42',
        base.slice(0, 40),
      ].join('\n'),
    );
    expect(results.map((r) => (r.ok ? 'ok' : r.reason.replace(/\(.*/, '')))).toEqual([
      'ok',
      'line 2: not valid JSON ',
      'line 3: expected a JSON object, found a list',
      'line 4: expected a JSON object, found a string',
      'line 5: expected a JSON object, found null',
      'line 6: expected a JSON object, found a number',
      'line 7: not valid JSON ',
    ]);
  });

  it('accepts numbers written as text and stringly EVE from older pipelines', () => {
    const event = one({ ...HTTP, src_port: '49811', http: { ...HTTP.http, status: '404', length: '12' } });
    expect(event).toMatchObject({ src_port: 49811, http: { status: 404, length: 12 } });
  });

  it('parses one line on its own', () => {
    const result = parseEveLine(JSON.stringify(FLOW), 41);
    expect(result).toMatchObject({ line: 41, ok: true, event: { event_type: 'flow' } });
    expect(parseEveLine('{', 42)).toMatchObject({
      line: 42,
      ok: false,
      reason: expect.stringMatching(/^line 42: not valid JSON/),
    });
  });
});
