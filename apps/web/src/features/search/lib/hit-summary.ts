import type { SearchHit } from '@vigil/contract';
import type { Camelize } from '../../../lib/http';

type Hit = Camelize<SearchHit>;

/** One line that says what a hit is, from its kind's event. */
export function summaryOf(hit: Hit): string {
  const event = hit.event as Record<string, unknown>;
  const at = (path: string): string => {
    let value: unknown = event;
    for (const key of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const join = (...parts: string[]) => parts.filter(Boolean).join('  ');
  switch (hit.kind) {
    case 'network': {
      const src = at('srcIp') ? `${at('srcIp')}${at('srcPort') ? `:${at('srcPort')}` : ''}` : '';
      const dest = at('destIp') ? `${at('destIp')}${at('destPort') ? `:${at('destPort')}` : ''}` : '';
      return join(
        at('eventType'),
        src && dest ? `${src} → ${dest}` : src || dest,
        at('alert.signature') || at('dns.rrname') || at('http.hostname') || at('tls.sni'),
      );
    }
    case 'endpoint':
      return join(
        at('host.name'),
        at('event.action'),
        at('user.name'),
        at('process.commandLine') || at('process.name') || at('file.path'),
      );
    case 'mail':
      return join(at('from.address'), at('subject'));
    case 'alerts':
      return join(at('severity'), at('title'));
  }
}
