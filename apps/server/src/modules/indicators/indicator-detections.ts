import type { FileHashes } from '@vigil/contract';
import { normaliseUrl } from '../ingest/parsers/urls';
import { normaliseIp } from '../ingest/parsers/values';
import type { DetectionStage } from '../pipeline/detection-stage';
import { dedupKeyOf, type Detection, type DetectionSource, type Observable } from '../pipeline/detections';
import type { StoredEvent } from '../pipeline/stored-events';
import type { IndicatorIndex, IndicatorIndexSource, LookupKind } from './indicator-index';
import { normaliseDomain, normaliseEmail, normaliseFileName } from './indicator-values';

/** One value taken from an event to be looked up, with where it was seen. */
export interface ExtractedObservable {
  kind: LookupKind;
  value: string;
  role: string;
}

const observableKindOf: Record<LookupKind, Observable['kind']> = {
  ip: 'ip',
  domain: 'domain',
  url: 'url',
  email: 'email',
  md5: 'hash',
  sha1: 'hash',
  sha256: 'hash',
  filename: 'file',
};

class Collector {
  readonly items: ExtractedObservable[] = [];

  add(kind: LookupKind, value: string | null | undefined, role: string): void {
    if (!value) return;
    // An event has a handful of observables: a scan beats a set of joined keys.
    for (const item of this.items) if (item.value === value && item.kind === kind) return;
    this.items.push({ kind, value, role });
  }
  ip(value: string | null | undefined, role: string): void {
    // Event IPs are canonical already (the parsers normalise them).
    this.add('ip', value, role);
  }
  domain(value: string | null | undefined, role: string): void {
    if (!value) return;
    const ip = normaliseIp(value);
    if (ip !== null) this.add('ip', ip, role);
    else this.add('domain', normaliseDomain(value), role);
  }
  url(value: string | null | undefined, role: string): void {
    if (!value) return;
    const url = normaliseUrl(value);
    if (url === null) return;
    this.add('url', url, role);
    this.domain(new URL(url).hostname.replace(/^\[|\]$/g, ''), `${role}.host`);
  }
  email(value: string | null | undefined, role: string): void {
    if (!value) return;
    const email = normaliseEmail(value);
    if (email === null) return;
    this.add('email', email, role);
    this.add('domain', email.slice(email.lastIndexOf('@') + 1), `${role}.domain`);
  }
  hashes(hashes: FileHashes | null | undefined, role: string): void {
    if (!hashes) return;
    this.add('md5', hashes.md5, `${role}.md5`);
    this.add('sha1', hashes.sha1, `${role}.sha1`);
    this.add('sha256', hashes.sha256, `${role}.sha256`);
  }
  fileName(value: string | null | undefined, role: string): void {
    if (value) this.add('filename', normaliseFileName(value), role);
  }
}

/**
 * The observables of an event worth looking up, and the entity a detection on it is about (the
 * host or source address for network and endpoint events, the first recipient for mail).
 */
export function extractObservables(stored: StoredEvent): { items: ExtractedObservable[]; entity: string } {
  const c = new Collector();
  if (stored.kind === 'network') {
    const e = stored.event;
    c.ip(e.src_ip, 'src_ip');
    c.ip(e.dest_ip, 'dest_ip');
    c.domain(e.dns?.rrname, 'dns.rrname');
    c.domain(e.http?.hostname, 'http.hostname');
    if (e.http?.url) {
      const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(e.http.url)
        ? e.http.url
        : e.http.hostname
          ? `http://${e.http.hostname}${e.http.url.startsWith('/') ? '' : '/'}${e.http.url}`
          : null;
      if (full) c.add('url', normaliseUrl(full), 'http.url');
    }
    c.domain(e.tls?.sni, 'tls.sni');
    if (e.fileinfo) {
      c.hashes(e.fileinfo, 'fileinfo');
      c.fileName(e.fileinfo.filename, 'fileinfo.filename');
    }
    return { items: c.items, entity: e.src_ip ?? e.host ?? '' };
  }
  if (stored.kind === 'endpoint') {
    const e = stored.event;
    if (e.process) {
      c.hashes(e.process.hash, 'process.hash');
      c.fileName(e.process.executable ?? e.process.name, 'process.executable');
      c.fileName(e.process.parent?.executable ?? e.process.parent?.name, 'process.parent.executable');
    }
    if (e.file) {
      c.hashes(e.file.hash, 'file.hash');
      c.fileName(e.file.name ?? e.file.path, 'file.name');
    }
    c.ip(e.network?.dest_ip, 'network.dest_ip');
    c.domain(e.dns?.question, 'dns.question');
    // A user principal name (user@domain) is an e-mail-shaped identity.
    if (e.user?.name?.includes('@')) c.email(e.user.name, 'user.name');
    return { items: c.items, entity: e.host.name ?? e.host.ip[0] ?? '' };
  }
  const m = stored.event;
  c.email(m.from?.address, 'mail.from');
  for (const reply of m.reply_to) c.email(reply.address, 'mail.reply_to');
  for (const url of m.urls) c.url(url, 'mail.url');
  for (const attachment of m.attachments) {
    c.hashes(attachment, 'mail.attachment');
    c.fileName(attachment.filename, 'mail.attachment.filename');
  }
  return { items: c.items, entity: m.to[0]?.address ?? '' };
}

function occurredAt(stored: StoredEvent): string {
  if (stored.kind === 'mail') return stored.event.date ?? stored.ts;
  return stored.event.timestamp;
}

const kindLabel = { network: 'network event', endpoint: 'endpoint event', mail: 'mail message' } as const;

/** Detections of the given index's live indicators in a company's events (see indicatorStage). */
export function detectWithIndex(
  index: IndicatorIndex,
  companyId: number,
  events: readonly StoredEvent[],
  now = Date.now(),
): Detection[] {
  const detections: Detection[] = [];
  if (index.size === 0) return detections;
  for (const stored of events) {
    const { items, entity } = extractObservables(stored);
    let raised: Set<string> | null = null;
    for (const item of items) {
      const match = index.match(companyId, item.kind, item.value, now);
      for (const indicator of match.alerts) {
        const once = `${indicator.id}\u0000${item.value}`;
        raised ??= new Set();
        if (raised.has(once)) continue;
        raised.add(once);
        const source: DetectionSource = {
          type: 'indicator',
          indicatorId: indicator.id,
          indicatorType: indicator.type,
          value: indicator.value,
        };
        const observables: Observable[] = [{ kind: observableKindOf[item.kind], value: item.value, role: item.role }];
        if (entity !== '' && entity !== item.value) {
          observables.push({
            kind: stored.kind === 'mail' ? 'email' : normaliseIp(entity) === null ? 'host' : 'ip',
            value: entity,
            role: stored.kind === 'mail' ? 'mail.to' : stored.kind === 'network' ? 'src_ip' : 'host',
          });
        }
        detections.push({
          companyId,
          source,
          title: `Indicator match: ${indicator.type} ${indicator.value}`,
          description: [
            `${item.value} (${item.role}) in a ${kindLabel[stored.kind]} matches the ${indicator.all ? 'all-companies ' : ''}${indicator.type} indicator ${indicator.value}.`,
            entity ? `Seen at: ${entity}` : null,
          ]
            .filter((line): line is string => line !== null)
            .join('\n'),
          severity: indicator.severity,
          mitre: [],
          observables,
          event: { kind: stored.kind, id: stored.id, ts: stored.ts },
          dedupKey: dedupKeyOf(source, [item.value, entity]),
          occurredAt: occurredAt(stored),
        });
      }
    }
  }
  return detections;
}

/**
 * The policy-indicator detection stage: every observable of a batch's events (addresses, names,
 * URLs, hashes, file names) is looked up in the in-memory index of live indicators — the company's
 * own and all-companies ones — with no database round trip. An `ignore` indicator matching a value
 * suppresses every alert indicator for that value. The index is read from `indexes` once per
 * batch, so a rebuild never changes it halfway through one.
 */
export function indicatorStage(indexes: IndicatorIndexSource): DetectionStage {
  return {
    name: 'indicators',
    detect: (ctx, events) => detectWithIndex(indexes.current(), ctx.companyId, events),
  };
}
