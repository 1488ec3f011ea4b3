import type { TFunction } from '../../../lib/i18n';
import { useTranslation } from '../../../lib/i18n';
import { formatDate } from '../../../lib/dates';
import type { NetworkEventView } from '../api/investigation';
import { networkCodeLabel } from '../lib/codes';
import { KeyValues, Pivot, Section } from './shared';

/*
 * The drawer sections of the EVE groups that only some events carry: SSH, DHCP, SMTP and the TCP
 * flags of a flow. Events stored before these groups were read have none of them (undefined).
 */

type Ssh = NonNullable<NetworkEventView['ssh']>;
type SshParty = NonNullable<Ssh['client']>;

const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? values.join(', ') : null);

function sshParty(party: SshParty | null): string | null {
  if (!party) return null;
  const version = party.protoVersion ? `SSH-${party.protoVersion}` : null;
  return [party.softwareVersion, version].filter(Boolean).join(' · ') || null;
}

export function SshSection({ ssh }: { ssh: Ssh }) {
  const { t } = useTranslation();
  return (
    <Section title={t('investigation.network.sections.ssh')} testId="section-ssh">
      <KeyValues
        items={[
          [t('investigation.network.sshClient'), sshParty(ssh.client)],
          [t('investigation.network.sshServer'), sshParty(ssh.server)],
          ['HASSH', ssh.client?.hassh ?? null],
          ['HASSH (server)', ssh.server?.hassh ?? null],
        ]}
      />
    </Section>
  );
}

export function DhcpSection({
  dhcp,
  onIp,
}: {
  dhcp: NonNullable<NetworkEventView['dhcp']>;
  /** Filters the list by an address. */
  onIp: (ip: string) => void;
}) {
  const { t } = useTranslation();
  const ip = (value: string | null) => (value ? <Pivot value={value} onPivot={onIp} /> : null);
  return (
    <Section title={t('investigation.network.sections.dhcp')} testId="section-dhcp">
      <KeyValues
        items={[
          [
            t('investigation.network.dhcpMessage'),
            dhcp.dhcpType ? networkCodeLabel('dhcpType', dhcp.dhcpType) : dhcp.type,
          ],
          [
            t('investigation.network.clientMac'),
            dhcp.clientMac ? <span className="vigil-inv-mono">{dhcp.clientMac}</span> : null,
          ],
          [t('investigation.network.dhcpHostname'), dhcp.hostname],
          [t('investigation.network.assignedIp'), ip(dhcp.assignedIp)],
          [t('investigation.network.requestedIp'), ip(dhcp.requestedIp)],
          [t('investigation.network.clientIp'), ip(dhcp.clientIp)],
          [
            t('investigation.network.leaseTime'),
            dhcp.leaseTime === null ? null : `${dhcp.leaseTime} ${t('investigation.network.seconds')}`,
          ],
          [t('investigation.network.subnetMask'), dhcp.subnetMask],
          [t('investigation.network.routers'), list(dhcp.routers)],
          [t('investigation.network.dnsServers'), list(dhcp.dnsServers)],
          [t('investigation.network.relayIp'), dhcp.relayIp],
          [t('investigation.network.transactionId'), dhcp.id === null ? null : String(dhcp.id)],
        ]}
      />
    </Section>
  );
}

export function SmtpSection({ smtp }: { smtp: NonNullable<NetworkEventView['smtp']> }) {
  const { t } = useTranslation();
  return (
    <Section title={t('investigation.network.sections.smtp')} testId="section-smtp">
      <KeyValues
        items={[
          ['HELO', smtp.helo],
          ['MAIL FROM', smtp.mailFrom],
          ['RCPT TO', list(smtp.rcptTo)],
          [t('investigation.network.mailFrom'), smtp.from],
          [t('investigation.network.mailTo'), list(smtp.to)],
          [t('investigation.network.mailCc'), list(smtp.cc)],
          [t('investigation.network.mailSubject'), smtp.subject],
          [t('investigation.network.attachments'), list(smtp.attachments)],
          [t('investigation.network.parseStatus'), smtp.status],
        ]}
      />
    </Section>
  );
}

/** The TCP flags of a flow, both ways and each way (by name, then in hex as Suricata writes them). */
export function tcpFlagsItems(tcp: NetworkEventView['tcp'] | undefined, t: TFunction): Array<[string, string | null]> {
  if (!tcp) return [];
  const hex = (value: string | null) => (value ? `0x${value}` : null);
  const names = tcp.flags.length > 0 ? tcp.flags.map((flag) => flag.toUpperCase()).join(' ') : null;
  return [
    [t('investigation.network.tcpFlags'), [names, hex(tcp.tcpFlags)].filter(Boolean).join(' · ') || null],
    [t('investigation.network.tcpFlagsToServer'), hex(tcp.tcpFlagsTs)],
    [t('investigation.network.tcpFlagsToClient'), hex(tcp.tcpFlagsTc)],
    [t('investigation.network.tcpState'), tcp.state],
  ];
}

/**
 * A certificate's validity, `from → to` (an unknown end left open), and whether it was valid when
 * the event happened.
 */
export function certificateValidity(
  notbefore: string | null | undefined,
  notafter: string | null | undefined,
  at: string,
  t: TFunction,
): string | null {
  if (!notbefore && !notafter) return null;
  const range = `${notbefore ? formatDate(notbefore) : '…'} → ${notafter ? formatDate(notafter) : '…'}`;
  const when = Date.parse(at);
  if (notafter && Date.parse(notafter) < when) return `${range} (${t('investigation.network.certExpired')})`;
  if (notbefore && Date.parse(notbefore) > when) return `${range} (${t('investigation.network.certNotYetValid')})`;
  return range;
}
