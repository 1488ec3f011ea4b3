import { networkEventSchema, type NetworkEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { parseEveLines } from './eve';
import {
  S7_ALERT_HTTP,
  S7_DHCP_ACK,
  S7_DHCP_REQUEST,
  S7_FILEINFO,
  S7_FLOW_TCP,
  S7_SMTP,
  S7_SSH,
  S7_STATS,
  S7_TLS,
  SURICATA7_SAMPLES,
} from './fixtures/eve-suricata7';

/** Every field Suricata 7 writes for these types ends up normalised, as a sensor sends them: one line each. */
const events = new Map<object, NetworkEvent>();
const results = parseEveLines(SURICATA7_SAMPLES.map((record) => JSON.stringify(record)).join('\n'));
results.forEach((result, i) => {
  if (result.ok) events.set(SURICATA7_SAMPLES[i]!, result.event);
});
const eventOf = (record: object): NetworkEvent => {
  const event = events.get(record);
  if (!event) throw new Error('not parsed');
  return event;
};

describe('EVE as Suricata 7 writes it', () => {
  it('reads every line into a valid normalised event with the group of its type', () => {
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(SURICATA7_SAMPLES.map(() => 'ok'));
    for (const event of events.values()) {
      expect(networkEventSchema.parse(event)).toEqual(event);
      const group = event.event_type === 'fileinfo' ? event.fileinfo : event[event.event_type as 'ssh'];
      expect(group, event.event_type).toBeTruthy();
    }
  });

  it('alert: the rule metadata, with the ATT&CK tactic and technique it names', () => {
    expect(eventOf(S7_ALERT_HTTP)).toMatchObject({
      severity: 'high',
      alert: {
        signature_id: 2024043,
        category: 'Attempted Administrator Privilege Gain',
        mitre_tactic_ids: ['TA0001'],
        mitre_technique_ids: ['T1190'],
        metadata: S7_ALERT_HTTP.alert.metadata,
      },
      http: {
        protocol: 'HTTP/1.1',
        http_refer: 'http://portal.example.com/',
        redirect: '/struts2-showcase/showcase.action',
        status: 302,
      },
    });
  });

  it('flow: the TCP flags of both directions', () => {
    expect(eventOf(S7_FLOW_TCP).tcp).toEqual({
      tcp_flags: '16',
      tcp_flags_ts: '02',
      tcp_flags_tc: '14',
      flags: ['syn', 'rst', 'ack'],
      state: 'closed',
    });
  });

  it('ssh: client and server software with their HASSH', () => {
    expect(eventOf(S7_SSH).ssh).toEqual({
      client: {
        proto_version: '2.0',
        software_version: 'libssh2_1.10.0',
        hassh: 'ec7378c1a92f5a8dde7e8b7a1ddf33d1',
      },
      server: {
        proto_version: '2.0',
        software_version: 'OpenSSH_8.9p1 Ubuntu-3ubuntu0.6',
        hassh: 'b12d2871a1189eff20364cf5333619ee',
      },
    });
  });

  it('dhcp: the request names the address asked for, the ack the one given, both the device', () => {
    expect(eventOf(S7_DHCP_ACK).dhcp).toEqual({
      type: 'reply',
      id: 2845437263,
      dhcp_type: 'ack',
      client_mac: '00:1a:2b:3c:4d:5e',
      client_ip: null,
      assigned_ip: '10.20.1.57',
      requested_ip: null,
      relay_ip: null,
      next_server_ip: null,
      hostname: 'WS-FIN-07',
      lease_time: 86400,
      subnet_mask: '255.255.255.0',
      routers: ['10.20.1.1'],
      dns_servers: ['10.20.0.2', '10.20.0.3'],
    });
    expect(eventOf(S7_DHCP_REQUEST).dhcp).toMatchObject({
      type: 'request',
      dhcp_type: 'request',
      client_mac: '00:1a:2b:3c:4d:5e',
      assigned_ip: null,
      requested_ip: '10.20.1.57',
      hostname: 'WS-FIN-07',
    });
  });

  it('smtp: the envelope with the message headers Suricata parsed', () => {
    expect(eventOf(S7_SMTP).smtp).toEqual({
      helo: 'mail.example.net',
      mail_from: '<billing@example.net>',
      rcpt_to: ['<ap@example.com>', '<cfo@example.com>'],
      from: '"Billing" <billing@example.net>',
      to: ['<ap@example.com>'],
      cc: ['<cfo@example.com>'],
      subject: 'Invoice 4471 overdue',
      attachments: ['Invoice_4471.zip'],
      status: 'PARSE_DONE',
    });
  });

  it('tls: the certificate serial and validity (written without a zone: UTC)', () => {
    expect(eventOf(S7_TLS).tls).toMatchObject({
      serial: '00:C4:9E:21:7A:55:0B:3D',
      notbefore: '2023-01-01T00:00:00Z',
      notafter: '2024-01-01T00:00:00Z',
      ja3: '72a589da586844d7f0818ce684948eea',
    });
  });

  it('fileinfo: whether the file was stored and whether packets were missing', () => {
    expect(eventOf(S7_FILEINFO).fileinfo).toMatchObject({ state: 'TRUNCATED', stored: true, gaps: true });
  });

  it('stats: the health counters, summed the way an operator reads them', () => {
    expect(eventOf(S7_STATS)).toMatchObject({
      event_type: 'stats',
      host: 'sensor-dmz-01',
      stats: {
        uptime: 86412,
        capture_kernel_packets: 91824455,
        capture_kernel_drops: 18230,
        capture_errors: 0,
        decoder_pkts: 91806225,
        decoder_bytes: 83201941774,
        decoder_invalid: 12,
        // No flow.total in Suricata 7: TCP + UDP + ICMPv4 + ICMPv6 flows.
        flows: 801224 + 398117 + 5102 + 12,
        tcp_sessions: 712004,
        tcp_reassembly_gaps: 418,
        detect_alerts: 1877,
        detect_alert_queue_overflows: 0,
        rules_loaded: 42617,
        rules_failed: 3,
        // http 12 + 3, tls 4 + 1.
        app_layer_errors: 20,
      },
    });
  });
});
