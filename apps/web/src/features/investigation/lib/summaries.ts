import { formatBytes } from '../../../lib/bytes';
import type { EndpointEventView, NetworkEventView } from '../api/investigation';

export { formatBytes };

/** `ip:port`, with IPv6 in brackets; the address alone when there is no port. */
export function endpointLabel(ip: string | null, port: number | null): string {
  if (!ip) return '—';
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return port === null ? host : `${host}:${port}`;
}

/** What a network row says in its summary column: the main value and a dimmer detail. */
export interface NetworkSummary {
  main: string;
  detail: string | null;
  /** A SHA-256 the summary names (fileinfo), to link to the files page. */
  sha256: string | null;
}

/** The kinds of code a network summary names (the groups of `investigation.network.values`). */
export type NetworkCodeKind = 'flowState' | 'flowReason' | 'anomalyType' | 'dhcpType';

/**
 * The one-line summary of a network event by its type: DNS query and answers, HTTP request, TLS, file,
 * SSH, DHCP, SMTP, alert. `label` names the codes it shows (a flow's state and why it ended, an
 * anomaly's kind, a DHCP message) in the interface language; by default they stay as they came.
 */
export function networkSummary(
  event: NetworkEventView,
  language = 'en',
  label: (kind: NetworkCodeKind, code: string) => string = (_kind, code) => code,
): NetworkSummary {
  const named = (kind: NetworkCodeKind, code: string | null | undefined) => (code ? label(kind, code) : null);
  const none: NetworkSummary = { main: '', detail: null, sha256: null };
  const join = (parts: Array<string | null | undefined>, separator = ' ') =>
    parts.filter((part): part is string => typeof part === 'string' && part !== '').join(separator);
  if (event.alert) {
    return {
      main: event.alert.signature,
      detail: join([event.alert.category, `SID ${event.alert.signatureId}`], ' · '),
      sha256: null,
    };
  }
  switch (event.eventType) {
    case 'dns': {
      const dns = event.dns;
      if (!dns) return none;
      const answers = dns.answers.map((a) => a.rdata).filter((a): a is string => !!a);
      return {
        main: join([dns.rrtype, dns.rrname]),
        detail: answers.length > 0 ? `→ ${answers.slice(0, 4).join(', ')}${answers.length > 4 ? ' …' : ''}` : dns.rcode,
        sha256: null,
      };
    }
    case 'http': {
      const http = event.http;
      if (!http) return none;
      return {
        main: join([http.httpMethod, `${http.hostname ?? ''}${http.url ?? ''}`]),
        detail: join([http.status === null ? null : String(http.status), http.httpUserAgent], ' · ') || null,
        sha256: null,
      };
    }
    case 'tls': {
      const tls = event.tls;
      if (!tls) return none;
      return { main: tls.sni ?? tls.subject ?? '', detail: join([tls.version, tls.ja3], ' · ') || null, sha256: null };
    }
    case 'fileinfo': {
      const file = event.fileinfo;
      if (!file) return none;
      return {
        main: file.filename ?? file.sha256 ?? '',
        detail: join([file.magic, file.size === null ? null : formatBytes(file.size, language)], ' · ') || null,
        sha256: file.sha256,
      };
    }
    case 'flow': {
      const flow = event.flow;
      if (!flow) return none;
      return {
        main: `↑ ${formatBytes(flow.bytesToserver, language)}  ↓ ${formatBytes(flow.bytesToclient, language)}`,
        detail: join([named('flowState', flow.state), named('flowReason', flow.reason)], ' · ') || null,
        sha256: null,
      };
    }
    case 'anomaly': {
      const anomaly = event.anomaly;
      return anomaly
        ? {
            main: join([anomaly.event, named('anomalyType', anomaly.type)], ' · '),
            detail: anomaly.layer,
            sha256: null,
          }
        : none;
    }
    case 'ssh': {
      const ssh = event.ssh;
      if (!ssh) return none;
      return {
        main: `${ssh.client?.softwareVersion ?? '?'} → ${ssh.server?.softwareVersion ?? '?'}`,
        detail: ssh.client?.hassh ?? null,
        sha256: null,
      };
    }
    case 'dhcp': {
      const dhcp = event.dhcp;
      if (!dhcp) return none;
      const address = dhcp.assignedIp ?? dhcp.requestedIp ?? dhcp.clientIp;
      return {
        main: join([named('dhcpType', dhcp.dhcpType) ?? dhcp.type, dhcp.clientMac, address ? `→ ${address}` : null]),
        detail: dhcp.hostname,
        sha256: null,
      };
    }
    case 'smtp': {
      const smtp = event.smtp;
      if (!smtp) return none;
      const to = smtp.rcptTo.length > 0 ? smtp.rcptTo : smtp.to;
      return {
        main: join([smtp.mailFrom ?? smtp.from, to.length > 0 ? `→ ${to.join(', ')}` : null]),
        detail: smtp.subject,
        sha256: null,
      };
    }
    default:
      return none;
  }
}

/** The one-line summary of an endpoint event: what it touched (target process, command line, file, registry, network, DNS, account). */
export function endpointSummary(event: EndpointEventView): string {
  // Events stored before the target process was read have none (undefined).
  const target = event.targetProcess;
  if (target && (target.executable ?? target.name)) {
    const access = target.grantedAccess ? ` (${target.grantedAccess})` : '';
    return `→ ${target.executable ?? target.name}${access}`;
  }
  if (event.process?.commandLine && /process|start|exec|create/i.test(event.event.action ?? '')) {
    return event.process.commandLine;
  }
  if (event.file?.path) return event.file.path;
  if (event.registry?.path)
    return event.registry.data ? `${event.registry.path} = ${event.registry.data}` : event.registry.path;
  if (event.dns?.question) {
    return event.dns.answers.length > 0
      ? `${event.dns.question} → ${event.dns.answers.join(', ')}`
      : event.dns.question;
  }
  if (event.network?.destIp) {
    return `${endpointLabel(event.network.srcIp, event.network.srcPort)} → ${endpointLabel(event.network.destIp, event.network.destPort)}`;
  }
  if (event.targetUser?.name) {
    const target = event.targetUser.domain
      ? `${event.targetUser.domain}\\${event.targetUser.name}`
      : event.targetUser.name;
    return event.group?.name ? `${target} → ${event.group.name}` : target;
  }
  return event.process?.commandLine ?? event.process?.executable ?? '';
}

/** `DOMAIN\name` or `name`. */
export function accountLabel(
  account: { name: string | null; domain: string | null } | null | undefined,
): string | null {
  if (!account?.name) return null;
  return account.domain ? `${account.domain}\\${account.name}` : account.name;
}
