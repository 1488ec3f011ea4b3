import { Table } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { EventDrawer, type EventSection } from '../../../components/event-drawer';
import { formatDate } from '../../../lib/dates';
import { SeverityBadge, ruleMetadataItems } from '../../triage';
import { useNetworkEvent, type NetworkEventView } from '../api/investigation';
import { networkCodeLabel, type NetworkCodeKind } from '../lib/codes';
import { formatBytes } from '../lib/summaries';
import { DhcpSection, SmtpSection, SshSection, certificateValidity, tcpFlagsItems } from './network-protocol-sections';
import { useAssetLookup } from '../../assets/api/asset-lookup';
import { AssetLink } from '../../assets/components/asset-link';
import { EventTypeBadge, Pivot, hashFields, type EventDrawerProps, useCompanyName, useEventDetail } from './shared';

/** The sections of one network event: the flow, then what its type carries, then the record as it arrived. */
export function NetworkEventDrawer({
  row,
  onClose,
  onFilter,
}: EventDrawerProps<{ ip?: string; communityId?: string }>) {
  const { t, i18n } = useTranslation();
  const { event, drawer } = useEventDetail<NetworkEventView>(row, useNetworkEvent(row?.id ?? null, row?.ts), {
    onClose,
    testId: 'network-drawer',
  });
  const companyName = useCompanyName();
  // An internal address links to the asset that held it when the event happened.
  const assets = useAssetLookup({ companyId: row?.companyId ?? 0, at: row?.ts, ips: [event?.srcIp, event?.destIp] });
  const ip = (value: string | null) =>
    value ? (
      <span className="vigil-inv-with-asset">
        <Pivot value={value} onPivot={(v) => onFilter({ ip: v })} />
        <AssetLink asset={assets.get(`ip:${value}`)} />
      </span>
    ) : null;
  const bytes = (value: number | null) => (value === null ? null : formatBytes(value, i18n.language));
  const named = (kind: NetworkCodeKind, code: string | null) => (code === null ? null : networkCodeLabel(kind, code));
  const yesNo = (value: boolean | null | undefined) =>
    value === null || value === undefined ? null : t(value ? 'investigation.common.yes' : 'investigation.common.no');
  const join = (values: readonly string[] | undefined) => (values && values.length > 0 ? values.join(', ') : null);

  if (!row || !event) return <EventDrawer {...drawer} heading={null} sections={null} />;
  const traffic = (bytesCount: number | null, packets: number | null) =>
    `${bytes(bytesCount) ?? '—'} · ${packets ?? '—'} ${t('investigation.network.packets')}`;
  const sections: EventSection[] = [
    {
      id: 'flow',
      title: t('investigation.network.sections.flow'),
      fields: [
        [t('investigation.common.time'), formatDate(row.ts, 'isoDateTimeSeconds')],
        [t('investigation.network.source'), ip(event.srcIp)],
        [t('investigation.network.srcPort'), event.srcPort === null ? null : String(event.srcPort)],
        [t('investigation.network.destination'), ip(event.destIp)],
        [t('investigation.network.destPort'), event.destPort === null ? null : String(event.destPort)],
        [t('investigation.network.proto'), event.proto],
        [t('investigation.network.appProto'), event.appProto],
        [t('investigation.network.sensor'), event.host],
        [t('investigation.common.company'), companyName(row.companyId)],
        [t('investigation.network.flowId'), event.flowId],
        [t('investigation.network.communityId'), event.communityId],
      ],
      pivots: [
        Boolean(event.communityId) && {
          label: t('investigation.network.sameFlow'),
          icon: <IconFilter size={14} />,
          onClick: () => onFilter({ communityId: event.communityId ?? undefined }),
        },
      ],
    },
    event.alert && {
      id: 'alert',
      title: t('investigation.network.sections.alert'),
      testId: 'section-alert',
      fieldsTestId: 'alert-facts',
      fields: [
        [t('investigation.network.signature'), event.alert.signature],
        [t('investigation.network.signatureId'), String(event.alert.signatureId)],
        [t('investigation.network.category'), event.alert.category],
        [t('investigation.network.action'), named('alertAction', event.alert.action)],
        [t('investigation.network.priority'), event.alert.severity === null ? null : String(event.alert.severity)],
        [t('investigation.network.mitreTactics'), join(event.alert.mitreTacticIds)],
        [t('investigation.network.mitre'), join(event.alert.mitreTechniqueIds)],
        ...ruleMetadataItems(event.alert.metadata, t),
      ],
    },
    event.dns && {
      id: 'dns',
      title: t('investigation.network.sections.dns'),
      testId: 'section-dns',
      fields: [
        [t('investigation.network.query'), event.dns.rrname],
        [t('investigation.network.recordType'), event.dns.rrtype],
        [t('investigation.network.dnsType'), named('dnsType', event.dns.type)],
        [t('investigation.network.rcode'), event.dns.rcode],
      ],
      more: event.dns.answers.length > 0 && <DnsAnswers answers={event.dns.answers} />,
    },
    event.http && {
      id: 'http',
      title: t('investigation.network.sections.http'),
      testId: 'section-http',
      fields: [
        [t('investigation.network.host'), event.http.hostname],
        [t('investigation.network.url'), <span className="vigil-inv-mono">{event.http.url}</span>],
        [t('investigation.network.method'), event.http.httpMethod],
        [t('investigation.network.status'), event.http.status === null ? null : String(event.http.status)],
        [t('investigation.network.userAgent'), event.http.httpUserAgent],
        [t('investigation.network.contentType'), event.http.httpContentType],
        [t('investigation.network.length'), bytes(event.http.length)],
        [t('investigation.network.httpProtocol'), event.http.protocol],
        [t('investigation.network.referrer'), event.http.httpRefer],
        [t('investigation.network.redirect'), event.http.redirect],
      ],
    },
    event.tls && {
      id: 'tls',
      title: t('investigation.network.sections.tls'),
      testId: 'section-tls',
      fields: [
        [t('investigation.network.sni'), event.tls.sni],
        [t('investigation.network.version'), event.tls.version],
        [t('investigation.network.subject'), event.tls.subject],
        [t('investigation.network.issuer'), event.tls.issuerdn],
        [t('investigation.network.fingerprint'), event.tls.fingerprint],
        ['JA3', event.tls.ja3],
        ['JA3S', event.tls.ja3s],
        ['JA4', event.tls.ja4],
        [t('investigation.network.serial'), event.tls.serial],
        [
          t('investigation.network.validity'),
          certificateValidity(event.tls.notbefore, event.tls.notafter, event.timestamp, t),
        ],
      ],
    },
    event.fileinfo && {
      id: 'file',
      title: t('investigation.network.sections.file'),
      testId: 'section-file',
      fields: [
        [t('investigation.network.fileName'), event.fileinfo.filename],
        [t('investigation.network.magic'), event.fileinfo.magic],
        [t('investigation.network.size'), bytes(event.fileinfo.size)],
        [t('investigation.network.state'), named('fileState', event.fileinfo.state)],
        [t('investigation.network.fileStored'), yesNo(event.fileinfo.stored)],
        [t('investigation.network.fileGaps'), yesNo(event.fileinfo.gaps)],
        ...hashFields(event.fileinfo),
      ],
    },
    event.flow && {
      id: 'traffic',
      title: t('investigation.network.sections.traffic'),
      fields: [
        [t('investigation.network.toServer'), traffic(event.flow.bytesToserver, event.flow.pktsToserver)],
        [t('investigation.network.toClient'), traffic(event.flow.bytesToclient, event.flow.pktsToclient)],
        [t('investigation.network.started'), event.flow.start ? formatDate(event.flow.start) : null],
        [t('investigation.network.ended'), event.flow.end ? formatDate(event.flow.end) : null],
        [t('investigation.network.state'), named('flowState', event.flow.state)],
        [t('investigation.network.reason'), named('flowReason', event.flow.reason)],
        ...tcpFlagsItems(event.tcp, t),
      ],
    },
    event.ssh && <SshSection key="ssh" ssh={event.ssh} />,
    event.dhcp && <DhcpSection key="dhcp" dhcp={event.dhcp} onIp={(value) => onFilter({ ip: value })} />,
    event.smtp && <SmtpSection key="smtp" smtp={event.smtp} />,
    event.anomaly && {
      id: 'anomaly',
      title: t('investigation.network.sections.anomaly'),
      fields: [
        [t('investigation.network.anomalyType'), named('anomalyType', event.anomaly.type)],
        [t('investigation.network.anomalyEvent'), event.anomaly.event],
        [t('investigation.network.layer'), event.anomaly.layer],
      ],
    },
  ];

  return (
    <EventDrawer
      {...drawer}
      heading={{
        before: <EventTypeBadge type={event.eventType} />,
        title: t('investigation.network.drawerTitle'),
        after: event.severity && <SeverityBadge severity={event.severity} />,
      }}
      sections={sections}
    />
  );
}

type DnsAnswer = NonNullable<NetworkEventView['dns']>['answers'][number];

/** The answers of a DNS event, one row each. */
function DnsAnswers({ answers }: { answers: readonly DnsAnswer[] }) {
  const { t } = useTranslation();
  return (
    <Table mt="sm" fz="xs" withRowBorders={false} verticalSpacing={2}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('investigation.network.answerName')}</Table.Th>
          <Table.Th>{t('investigation.network.recordType')}</Table.Th>
          <Table.Th>{t('investigation.network.answerData')}</Table.Th>
          <Table.Th>TTL</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {answers.map((answer, index) => (
          <Table.Tr key={index}>
            <Table.Td className="vigil-inv-mono">{answer.rrname}</Table.Td>
            <Table.Td>{answer.rrtype}</Table.Td>
            <Table.Td className="vigil-inv-mono">{answer.rdata}</Table.Td>
            <Table.Td>{answer.ttl}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
