import type { IndicatorType, MailMessage } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { normaliseEndpoint } from '../ingest/parsers/endpoint';
import { normaliseEve } from '../ingest/parsers/eve';
import type { StoredEvent } from '../pipeline/stored-events';
import { detectWithIndex } from './indicator-detections';
import { IndicatorIndex, type IndexedIndicator } from './indicator-index';
import { normaliseIndicatorValue } from './indicator-values';

let nextId = 1;
function ind(
  type: IndicatorType,
  raw: string,
  extra: Partial<Omit<IndexedIndicator, 'type' | 'value'>> = {},
): IndexedIndicator {
  const normalised = normaliseIndicatorValue(type, raw);
  if (!normalised.ok) throw new Error(normalised.reason);
  return {
    id: nextId++,
    companyId: 1,
    all: false,
    policy: 'alert',
    severity: 'high',
    expiresAt: null,
    ...extra,
    type,
    value: normalised.value,
  };
}

describe('normaliseIndicatorValue', () => {
  it('makes values canonical and refuses what is not one', () => {
    expect(normaliseIndicatorValue('ip', '::FFFF:10.0.0.1')).toEqual({ ok: true, value: '10.0.0.1' });
    expect(normaliseIndicatorValue('ip', '2001:DB8:0:0:0:0:0:1')).toEqual({ ok: true, value: '2001:db8::1' });
    expect(normaliseIndicatorValue('ip', '300.1.1.1').ok).toBe(false);
    expect(normaliseIndicatorValue('cidr', '10.1.2.3/8')).toEqual({ ok: true, value: '10.0.0.0/8' });
    expect(normaliseIndicatorValue('cidr', '2001:db8:abcd::1/33')).toEqual({ ok: true, value: '2001:db8:8000::/33' });
    expect(normaliseIndicatorValue('cidr', '10.0.0.0/33').ok).toBe(false);
    expect(normaliseIndicatorValue('cidr', '192.0.2.7')).toEqual({ ok: true, value: '192.0.2.7/32' });
    expect(normaliseIndicatorValue('domain', '*.Evil.EXAMPLE.')).toEqual({ ok: true, value: 'evil.example' });
    expect(normaliseIndicatorValue('domain', 'bücher.example')).toEqual({ ok: true, value: 'xn--bcher-kva.example' });
    expect(normaliseIndicatorValue('domain', 'bad domain').ok).toBe(false);
    expect(normaliseIndicatorValue('url', 'HTTP://Evil.Example/a b')).toEqual({
      ok: true,
      value: 'http://evil.example/a%20b',
    });
    expect(normaliseIndicatorValue('url', 'evil.example/x').ok).toBe(false);
    expect(normaliseIndicatorValue('email', 'Bad.Guy@Evil.Example')).toEqual({
      ok: true,
      value: 'bad.guy@evil.example',
    });
    expect(normaliseIndicatorValue('md5', 'D41D8CD98F00B204E9800998ECF8427E').ok).toBe(true);
    expect(normaliseIndicatorValue('sha1', 'd41d8cd98f00b204e9800998ecf8427e')).toEqual({
      ok: false,
      reason: 'An SHA1 is 40 hexadecimal digits.',
    });
    expect(normaliseIndicatorValue('filename', 'Invoice.PDF.exe')).toEqual({ ok: true, value: 'invoice.pdf.exe' });
    expect(normaliseIndicatorValue('filename', 'C:\\x\\a.exe').ok).toBe(false);
  });
});

describe('IndicatorIndex', () => {
  it('matches a domain and its subdomains, not look-alikes', () => {
    const index = new IndicatorIndex([ind('domain', 'evil.example')]);
    expect(index.match(1, 'domain', 'evil.example').alerts).toHaveLength(1);
    expect(index.match(1, 'domain', 'a.b.evil.example').alerts).toHaveLength(1);
    expect(index.match(1, 'domain', 'notevil.example').alerts).toHaveLength(0);
    expect(index.match(1, 'domain', 'example').alerts).toHaveLength(0);
  });

  it('matches IPv4 networks at their edges', () => {
    const index = new IndicatorIndex([ind('cidr', '10.1.0.0/16'), ind('cidr', '0.0.0.0/0', { severity: 'low' })]);
    expect(index.match(1, 'ip', '10.1.0.0').alerts.map((a) => a.value)).toEqual(['10.1.0.0/16', '0.0.0.0/0']);
    expect(index.match(1, 'ip', '10.1.255.255').alerts).toHaveLength(2);
    expect(index.match(1, 'ip', '10.2.0.0').alerts.map((a) => a.value)).toEqual(['0.0.0.0/0']);
    expect(index.match(1, 'ip', '10.0.255.255').alerts.map((a) => a.value)).toEqual(['0.0.0.0/0']);
    const host = new IndicatorIndex([ind('cidr', '255.255.255.255/32')]);
    expect(host.match(1, 'ip', '255.255.255.255').alerts).toHaveLength(1);
    expect(host.match(1, 'ip', '255.255.255.254').alerts).toHaveLength(0);
  });

  it('matches IPv6 networks at their edges, and keeps families apart', () => {
    const index = new IndicatorIndex([
      ind('cidr', '2001:db8::/33'),
      ind('cidr', 'fe80::/10'),
      ind('ip', '2001:db8::5'),
    ]);
    expect(index.match(1, 'ip', '2001:db8:7fff:ffff:ffff:ffff:ffff:ffff').alerts).toHaveLength(1);
    expect(index.match(1, 'ip', '2001:db8:8000::').alerts).toHaveLength(0);
    expect(index.match(1, 'ip', 'febf:ffff::1').alerts).toHaveLength(1);
    expect(index.match(1, 'ip', 'fec0::1').alerts).toHaveLength(0);
    expect(index.match(1, 'ip', '2001:db8::5').alerts).toHaveLength(2);
    expect(index.match(1, 'ip', '32.1.13.184').alerts).toHaveLength(0);
  });

  it('ignores expired indicators and other companies', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const index = new IndicatorIndex([
      ind('sha256', 'a'.repeat(64), { expiresAt: now - 1 }),
      ind('sha256', 'b'.repeat(64), { expiresAt: now + 1000 }),
      ind('md5', 'c'.repeat(32), { companyId: 2 }),
      ind('md5', 'd'.repeat(32), { companyId: 2, all: true }),
    ]);
    expect(index.match(1, 'sha256', 'a'.repeat(64), now).alerts).toHaveLength(0);
    expect(index.match(1, 'sha256', 'b'.repeat(64), now).alerts).toHaveLength(1);
    expect(index.match(1, 'md5', 'c'.repeat(32), now).alerts).toHaveLength(0);
    expect(index.match(2, 'md5', 'c'.repeat(32), now).alerts).toHaveLength(1);
    expect(index.match(1, 'md5', 'd'.repeat(32), now).alerts).toHaveLength(1);
  });

  it('lets an ignore indicator win over alert indicators for the same value', () => {
    const index = new IndicatorIndex([
      ind('domain', 'example.com'),
      ind('domain', 'cdn.example.com', { policy: 'ignore' }),
      ind('cidr', '10.0.0.0/8', { policy: 'ignore', companyId: 9, all: true }),
      ind('ip', '10.1.1.1'),
      ind('ip', '192.0.2.1'),
      ind('ip', '192.0.2.1', { policy: 'ignore', expiresAt: 1 }),
    ]);
    expect(index.match(1, 'domain', 'x.cdn.example.com')).toEqual({ ignored: true, alerts: [] });
    expect(index.match(1, 'domain', 'www.example.com').alerts).toHaveLength(1);
    expect(index.match(1, 'ip', '10.1.1.1').ignored).toBe(true);
    // An expired ignore no longer suppresses.
    expect(index.match(1, 'ip', '192.0.2.1').alerts).toHaveLength(1);
  });
});

const networkEvent = (record: Record<string, unknown>): StoredEvent => ({
  kind: 'network',
  id: 11,
  ts: '2026-01-01T00:00:00Z',
  companyId: 1,
  event: normaliseEve(record, JSON.stringify(record)),
});

describe('detectWithIndex', () => {
  const index = new IndicatorIndex([
    ind('ip', '203.0.113.9', { id: 100 }),
    ind('domain', 'evil.example', { id: 101, severity: 'critical' }),
    ind('url', 'http://evil.example/payload.bin', { id: 102 }),
    ind('sha256', 'e'.repeat(64), { id: 103 }),
    ind('filename', 'dropper.exe', { id: 104 }),
    ind('email', 'ceo@evil.example', { id: 105 }),
    ind('md5', 'f'.repeat(32), { id: 106 }),
    ind('cidr', '198.51.100.0/24', { id: 107 }),
  ]);

  it('finds network observables: addresses, DNS, HTTP host and URL, TLS SNI, file info', () => {
    const dns = networkEvent({
      timestamp: '2026-01-01T00:00:00Z',
      event_type: 'dns',
      src_ip: '10.0.0.5',
      dest_ip: '203.0.113.9',
      dns: { type: 'query', rrname: 'WWW.evil.example', rrtype: 'A' },
    });
    const found = detectWithIndex(index, 1, [dns]);
    expect(found.map((d) => d.title).sort()).toEqual([
      'Indicator match: domain evil.example',
      'Indicator match: ip 203.0.113.9',
    ]);
    const domain = found.find((d) => d.source.type === 'indicator' && d.source.indicatorId === 101)!;
    expect(domain.severity).toBe('critical');
    expect(domain.observables).toEqual([
      { kind: 'domain', value: 'www.evil.example', role: 'dns.rrname' },
      { kind: 'ip', value: '10.0.0.5', role: 'src_ip' },
    ]);
    expect(domain.event).toEqual({ kind: 'network', id: 11, ts: '2026-01-01T00:00:00Z' });
    expect(domain.dedupKey).toBe('indicator:101|10.0.0.5|www.evil.example');

    const http = networkEvent({
      timestamp: '2026-01-01T00:00:00Z',
      event_type: 'fileinfo',
      src_ip: '198.51.100.77',
      dest_ip: '10.0.0.5',
      http: { hostname: 'cdn.evil.example', url: '/payload.bin' },
      tls: { sni: 'other.test' },
      fileinfo: { filename: '/x/Dropper.EXE', sha256: 'E'.repeat(64), size: 1 },
    });
    const ids = detectWithIndex(index, 1, [http])
      .map((d) => (d.source.type === 'indicator' ? d.source.indicatorId : 0))
      .sort();
    expect(ids).toEqual([101, 103, 104, 107]);
    const url = networkEvent({
      timestamp: '2026-01-01T00:00:00Z',
      event_type: 'http',
      http: { hostname: 'evil.example', url: '/payload.bin' },
    });
    expect(detectWithIndex(index, 1, [url]).map((d) => d.title)).toContain(
      'Indicator match: url http://evil.example/payload.bin',
    );
    // Another company's events see none of company 1's indicators.
    expect(detectWithIndex(index, 2, [dns, http])).toEqual([]);
  });

  it('finds endpoint observables: process and file hashes, names, destination, DNS question, user', () => {
    const event = normaliseEndpoint({
      '@timestamp': '2026-01-01T00:00:00Z',
      host: { name: 'WS-01' },
      event: { action: 'process-create' },
      process: {
        pid: 4,
        executable: 'C:\\Users\\a\\dropper.exe',
        hash: { md5: 'F'.repeat(32) },
        parent: { executable: 'C:\\Windows\\explorer.exe' },
      },
      file: { path: 'C:\\tmp\\x.dll', hash: { sha256: 'e'.repeat(64) } },
      network: { dest_ip: '198.51.100.1' },
      dns: { question: { name: 'a.evil.example' } },
      user: { name: 'ceo@evil.example' },
    });
    const stored: StoredEvent = { kind: 'endpoint', id: 5, ts: '2026-01-01T00:00:00Z', companyId: 1, event };
    const found = detectWithIndex(index, 1, [stored]);
    const ids = found.map((d) => (d.source.type === 'indicator' ? d.source.indicatorId : 0)).sort();
    expect(ids).toEqual([101, 101, 103, 104, 105, 106, 107]);
    expect(found.every((d) => d.dedupKey.includes('WS-01'))).toBe(true);
  });

  it('finds mail observables: sender, reply-to, URLs and hosts, attachment hashes and names', () => {
    const message: MailMessage = {
      message_id: '<1@x>',
      date: '2026-01-01T00:00:00Z',
      from: { address: 'CEO@evil.example', name: null },
      to: [{ address: 'victim@corp.test', name: null }],
      cc: [],
      reply_to: [{ address: 'pay@other.test', name: null }],
      subject: 'Invoice',
      text: null,
      html: null,
      text_truncated: false,
      html_truncated: false,
      header_lines: [],
      headers: {
        received: [],
        return_path: null,
        x_mailer: null,
        spf: null,
        dkim: null,
        dmarc: null,
        arc: null,
        compauth: null,
        authentication_results: [],
      },
      urls: ['http://evil.example/payload.bin'],
      attachments: [
        {
          filename: 'dropper.exe',
          content_type: 'application/octet-stream',
          size: 3,
          md5: '0'.repeat(32),
          sha1: '0'.repeat(40),
          sha256: 'e'.repeat(64),
          detected_type: 'pe',
          inline: false,
          double_extension: false,
          urls: [],
        },
      ],
      size: 100,
    };
    const found = detectWithIndex(index, 1, [
      { kind: 'mail', id: 9, ts: '2026-01-01T00:00:01Z', companyId: 1, event: message },
    ]);
    const byId = found.map((d) => (d.source.type === 'indicator' ? d.source.indicatorId : 0)).sort();
    // The sender's domain and the URL's host are one value: looked up, and raised, once.
    expect(byId).toEqual([101, 102, 103, 104, 105]);
    expect(found.every((d) => d.dedupKey.includes('victim@corp.test'))).toBe(true);
  });
});
