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

/**
 * The page of an ATT&CK id: a technique (`T1059.001` → `…/techniques/T1059/001/`) or a tactic
 * (`TA0002` → `…/tactics/TA0002/`); null for anything else.
 */
export function mitreUrl(id: string): string | null {
  const text = id.trim();
  const tactic = /^TA\d{4}$/i.exec(text);
  if (tactic) return `https://attack.mitre.org/tactics/${text.toUpperCase()}/`;
  const match = /^(T\d{4})(?:\.(\d{3}))?$/i.exec(text);
  if (!match) return null;
  const [, technique, sub] = match;
  return `https://attack.mitre.org/techniques/${(technique as string).toUpperCase()}/${sub ? `${sub}/` : ''}`;
}
