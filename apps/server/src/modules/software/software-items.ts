import type { SoftwareInventoryItem } from '../ingest/parsers';
import type { StoredEvent } from '../pipeline/stored-events';

/**
 * What a batch tells of the software on hosts, folded before it is written: one entry per
 * product, per version and per install, so that a batch costs the same few statements whatever
 * it holds, and the same line sent twice changes nothing.
 */

/** One product however its vendor and name are spaced or capitalised. */
export function productKey(vendor: string, name: string): string {
  const fold = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return `${fold(vendor)}\t${fold(name)}`;
}

/** Sysmon writes `-` or `?` for a field it could not read. */
const unknown = (value: string | number | boolean | null | undefined): string | null => {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text === '-' || text === '?' ? null : text;
};

/** `10.0.19041.1 (WinBuild.160101.0800)` → `10.0.19041.1`: the build label is not part of the version. */
export function fileVersion(text: string): string {
  const cut = text.indexOf(' (');
  return (cut > 0 ? text.slice(0, cut) : text).trim();
}

/**
 * Products of the process images endpoints started, where the event carries them (Sysmon process
 * creation's Product, FileVersion and Company, from EVTX, Winlogbeat or flat Windows JSON).
 */
export function softwareOfProcesses(stored: readonly StoredEvent[]): SoftwareInventoryItem[] {
  const out: SoftwareInventoryItem[] = [];
  for (const s of stored) {
    if (s.kind !== 'endpoint') continue;
    const e = s.event;
    if (e.event.action !== 'process-create' || e.host.name === null) continue;
    const data = e.event_data;
    const product = unknown(data.Product);
    if (product === null) continue;
    const version = unknown(data.FileVersion);
    out.push({
      host_name: e.host.name.slice(0, 255),
      vendor: (unknown(data.Company) ?? '').slice(0, 300),
      name: product.slice(0, 300),
      version: version === null ? '' : fileVersion(version).slice(0, 200),
      source: 'process',
      seen_at: s.ts,
      installed_at: null,
      removed: false,
    });
  }
  return out;
}

export interface FoldedInstall {
  key: string;
  version: string;
  host_name: string;
  host_key: string;
  first_seen: string;
  last_seen: string;
  /** When the last report said the package went; null when it was last seen present. */
  removed_at: string | null;
  source: string;
}

export interface FoldedSoftware {
  products: { key: string; vendor: string; name: string; first_seen: string; last_seen: string }[];
  versions: { key: string; version: string; first_seen: string; last_seen: string }[];
  installs: FoldedInstall[];
}

const earlier = (a: string, b: string) => (Date.parse(a) <= Date.parse(b) ? a : b);
const later = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/** Folds a batch's items: products, versions and installs once each, sorted so writers lock in one order. */
export function foldSoftware(items: readonly SoftwareInventoryItem[], receivedAt: string): FoldedSoftware {
  const products = new Map<string, FoldedSoftware['products'][number]>();
  const versions = new Map<string, FoldedSoftware['versions'][number]>();
  const installs = new Map<string, FoldedInstall>();
  for (const item of items) {
    const key = productKey(item.vendor, item.name);
    const seen = item.seen_at ?? receivedAt;
    const since = item.installed_at === null ? seen : earlier(item.installed_at, seen);
    const product = products.get(key);
    if (product) {
      product.first_seen = earlier(product.first_seen, since);
      product.last_seen = later(product.last_seen, seen);
    } else
      products.set(key, {
        key,
        vendor: item.vendor.trim(),
        name: item.name.trim(),
        first_seen: since,
        last_seen: seen,
      });
    const versionKey = `${key}\n${item.version}`;
    const version = versions.get(versionKey);
    if (version) {
      version.first_seen = earlier(version.first_seen, since);
      version.last_seen = later(version.last_seen, seen);
    } else versions.set(versionKey, { key, version: item.version, first_seen: since, last_seen: seen });
    const hostKey = item.host_name.trim().toLowerCase();
    const installKey = `${versionKey}\n${hostKey}`;
    const install = installs.get(installKey);
    if (install) {
      install.first_seen = earlier(install.first_seen, since);
      // The latest report decides whether the package is there.
      if (Date.parse(seen) >= Date.parse(install.last_seen)) {
        install.last_seen = seen;
        install.removed_at = item.removed ? seen : null;
        install.source = item.source;
      }
    } else {
      installs.set(installKey, {
        key,
        version: item.version,
        host_name: item.host_name.trim(),
        host_key: hostKey,
        first_seen: since,
        last_seen: seen,
        removed_at: item.removed ? seen : null,
        source: item.source,
      });
    }
  }
  const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return {
    products: [...products.values()].sort(byKey),
    versions: [...versions.values()].sort((a, b) => byKey(a, b) || (a.version < b.version ? -1 : 1)),
    installs: [...installs.values()].sort(
      (a, b) =>
        byKey(a, b) || (a.version < b.version ? -1 : a.version > b.version ? 1 : a.host_key < b.host_key ? -1 : 1),
    ),
  };
}
