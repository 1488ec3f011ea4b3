import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEndpointLines, parseEveLines, parseMail } from '../ingest/parsers';
import { encodePowerShell } from './endpoint';
import { batches, generateDemo } from './generate';
import { MALICIOUS_HTML_SUBJECT } from './mail';

const now = Date.parse('2026-11-22T12:00:00Z');
const demo = generateDemo({ seed: 3, scale: 'small', now });

describe('demo traffic', () => {
  it('is accepted line by line by the real ingest parsers, with every EVE record type', () => {
    for (const { customer, network, endpoint } of demo.customers) {
      const eve = batches(network, 2000).flatMap((body) => parseEveLines(body));
      expect(
        eve.filter((r) => !r.ok),
        customer.name,
      ).toEqual([]);
      const types = new Set(eve.flatMap((r) => (r.ok ? [r.event.event_type] : [])));
      expect([...types].sort()).toEqual(['alert', 'anomaly', 'dhcp', 'dns', 'fileinfo', 'flow', 'http', 'tls']);
      const signatures = eve.flatMap((r) => (r.ok && r.event.alert ? [r.event.alert.signature] : []));
      expect(signatures.some((s) => s.startsWith('ET MALWARE'))).toBe(true);
      const ep = batches(endpoint, 1000).flatMap((body) => parseEndpointLines(body));
      expect(
        ep.filter((r) => !r.ok),
        customer.name,
      ).toEqual([]);
    }
  });

  it('keeps every event inside the last 14 days, oldest first', () => {
    for (const { network, endpoint, mail } of demo.customers) {
      for (const list of [network, endpoint, mail]) {
        expect(list.every((item, i) => i === 0 || list[i - 1]!.at <= item.at)).toBe(true);
        expect(list[0]!.at).toBeGreaterThanOrEqual(now - 14 * 24 * 3600_000);
        expect(list[list.length - 1]!.at).toBeLessThanOrEqual(now);
      }
    }
  });

  it('builds process trees: Word starts rundll32, cmd starts an encoded PowerShell', () => {
    const northwind = demo.customers.find((c) => c.customer.key === 'northwind')!;
    const processes = batches(northwind.endpoint, 1000)
      .flatMap((body) => parseEndpointLines(body))
      .flatMap((r) => (r.ok && r.event.event.action === 'process-create' && r.event.process ? [r.event.process] : []));
    const rundll = processes.find((p) => p.name === 'rundll32.exe');
    expect(rundll?.parent?.name).toBe('WINWORD.EXE');
    const cradle = processes.find((p) => p.command_line?.includes(' -Enc '));
    expect(cradle?.parent?.name).toBe('cmd.exe');
    const encoded = cradle!.command_line!.split(' -Enc ')[1]!;
    expect(Buffer.from(encoded, 'base64').toString('utf16le')).toMatch(/DownloadString\('http:\/\/198\.51\.100\.23\//);
    expect(encodePowerShell('whoami')).toBe('dwBoAG8AYQBtAGkA');
  });

  it('sends mail with real attachment hashes and one HTML message with a script, a handler and a remote image', async () => {
    const northwind = demo.customers.find((c) => c.customer.key === 'northwind')!;
    const parsed = await Promise.all(northwind.mail.map((m) => parseMail(m.raw)));
    expect(parsed.every((p) => p.ok)).toBe(true);
    const messages = parsed.flatMap((p) => (p.ok ? [p.message] : []));
    const invoice = messages.find((m) => m.attachments.some((a) => a.filename === 'Invoice_INV-88231.doc'))!;
    const doc = invoice.attachments[0]!;
    expect(doc.sha256).toBe(createHash('sha256').update(doc.content).digest('hex'));
    expect(doc.sha256).toBe(demo.files.get('Invoice_INV-88231.doc')!.sha256);
    expect(doc.detected_type).toBe('ole2');
    expect(invoice.from?.address).toBe('accounts.payable@northwlnd-logistics.com');
    const html = messages.find((m) => m.subject === MALICIOUS_HTML_SUBJECT)!;
    expect(html.html).toContain("<script>document.title='pwned'");
    expect(html.html).toMatch(/onerror="/);
    expect(html.urls).toContain(
      `http://tracker.example/open.gif?id=${/open\.gif\?id=([0-9a-f]+)/.exec(html.html!)![1]}`,
    );
    expect(html.headers).toMatchObject({ spf: 'fail', dmarc: 'fail' });
    const aurora = demo.customers.find((c) => c.customer.key === 'aurora')!;
    const exe = await parseMail(aurora.mail.find((m) => m.subject.startsWith('Lab results'))!.raw);
    expect(exe.ok && exe.message.attachments[0]!.detected_type).toBe('pe');
  });
});
