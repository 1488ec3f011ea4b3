import type { SearchKind } from './fields';

/**
 * One line that says what a search hit is, from its kind's event. `key` names a field as the event
 * at hand spells it: the server reads the wire's snake_case, the console its camelCase.
 */
export function hitSummary(
  kind: SearchKind,
  event: Readonly<Record<string, unknown>>,
  key: (snakeCase: string) => string = (name) => name,
): string {
  const at = (path: string): string => {
    let value: unknown = event;
    for (const name of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key(name)];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const join = (...parts: string[]) => parts.filter(Boolean).join('  ');
  switch (kind) {
    case 'network': {
      const src = at('src_ip') ? `${at('src_ip')}${at('src_port') ? `:${at('src_port')}` : ''}` : '';
      const dest = at('dest_ip') ? `${at('dest_ip')}${at('dest_port') ? `:${at('dest_port')}` : ''}` : '';
      return join(
        at('event_type'),
        src && dest ? `${src} → ${dest}` : src || dest,
        at('alert.signature') || at('dns.rrname') || at('http.hostname') || at('tls.sni'),
      );
    }
    case 'endpoint':
      return join(
        at('host.name'),
        at('event.action'),
        at('user.name'),
        at('process.command_line') || at('process.name') || at('file.path'),
      );
    case 'mail':
      return join(at('from.address'), at('subject'));
    case 'alerts':
      return join(at('severity'), at('title'));
  }
}
