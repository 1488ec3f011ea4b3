import { endpointEventsUrl, filesUrl, mailUrl, networkEventsUrl } from '../../triage';

export type PivotTarget = 'network' | 'endpoint' | 'files' | 'mail';

const SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Where one click on an observable leads: addresses, domains and URLs to network events, hosts,
 * users, files and shorter hashes to endpoint events, SHA-256 to the file store, addresses of mail
 * to mail. Null for kinds nothing can be searched by.
 */
export function pivotOf(kind: string, value: string): { href: string; target: PivotTarget } | null {
  switch (kind) {
    case 'ip':
      return { href: networkEventsUrl({ ip: value }), target: 'network' };
    case 'domain':
    case 'url':
      return { href: networkEventsUrl({ search: value }), target: 'network' };
    case 'host':
      return { href: endpointEventsUrl({ host_name: value }), target: 'endpoint' };
    case 'user':
      return { href: endpointEventsUrl({ user_name: value }), target: 'endpoint' };
    case 'hash':
      return SHA256.test(value)
        ? { href: filesUrl({ sha256: value.toLowerCase() }), target: 'files' }
        : { href: endpointEventsUrl({ hash: value.toLowerCase() }), target: 'endpoint' };
    case 'file':
      return { href: endpointEventsUrl({ search: value }), target: 'endpoint' };
    case 'email':
      return { href: mailUrl({ search: value }), target: 'mail' };
    default:
      return null;
  }
}

/** The page of an ATT&CK technique: `T1059.001` → `…/techniques/T1059/001/`; null for anything else. */
export function mitreUrl(technique: string): string | null {
  const match = /^(T\d{4})(?:\.(\d{3}))?$/i.exec(technique.trim());
  if (!match) return null;
  const [, id, sub] = match;
  return `https://attack.mitre.org/techniques/${(id as string).toUpperCase()}/${sub ? `${sub}/` : ''}`;
}
