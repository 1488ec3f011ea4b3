import { Button, Group, Table, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { DetailDrawer } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { SeverityBadge, ruleMetadataItems } from '../../triage';
import { useNetworkEvent, type NetworkEventView, type StoredEvent } from '../api/investigation';
import { networkCodeLabel, type NetworkCodeKind } from '../lib/codes';
import { formatBytes } from '../lib/summaries';
import { DhcpSection, SmtpSection, SshSection, certificateValidity, tcpFlagsItems } from './network-protocol-sections';
import { EventTypeBadge, HashValue, KeyValues, Pivot, Section, useCompanyName, useEventDetail } from './shared';

/** The sections of one network event: the flow, then what its type carries, then the record as it arrived. */
export function NetworkEventDrawer({
  row,
  onClose,
  onFilter,
}: {
  row: StoredEvent | null;
  onClose: () => void;
  /** Filters the list by a value (closes the drawer). */
  onFilter: (filter: { ip?: string; communityId?: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const { event, drawer } = useEventDetail<NetworkEventView>(row, useNetworkEvent(row?.id ?? null, row?.ts));
  const companyName = useCompanyName();
  const ip = (value: string | null) => (value ? <Pivot value={value} onPivot={(v) => onFilter({ ip: v })} /> : null);
  const bytes = (value: number | null) => (value === null ? null : formatBytes(value, i18n.language));
  const named = (kind: NetworkCodeKind, code: string | null) => (code === null ? null : networkCodeLabel(kind, code));
  const yesNo = (value: boolean | null | undefined) =>
    value === null || value === undefined ? null : t(value ? 'investigation.common.yes' : 'investigation.common.no');
  const join = (values: readonly string[] | undefined) => (values && values.length > 0 ? values.join(', ') : null);

  return (
    <DetailDrawer
      {...drawer}
      onClose={onClose}
      title={
        event ? (
          <Group gap="sm">
            <EventTypeBadge type={event.eventType} />
            <Text fw={600}>{t('investigation.network.drawerTitle')}</Text>
            {event.severity && <SeverityBadge severity={event.severity} />}
          </Group>
        ) : null
      }
      testId="network-drawer"
    >
      {row && event && (
        <>
          <Section title={t('investigation.network.sections.flow')}>
            <KeyValues
              items={[
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
              ]}
            />
            {event.communityId && (
              <Button
                mt="sm"
                size="xs"
                variant="light"
                leftSection={<IconFilter size={14} />}
                onClick={() => onFilter({ communityId: event.communityId ?? undefined })}
              >
                {t('investigation.network.sameFlow')}
              </Button>
            )}
          </Section>

          {event.alert && (
            <Section title={t('investigation.network.sections.alert')} testId="section-alert">
              <KeyValues
                items={[
                  [t('investigation.network.signature'), event.alert.signature],
                  [t('investigation.network.signatureId'), String(event.alert.signatureId)],
                  [t('investigation.network.category'), event.alert.category],
                  [t('investigation.network.action'), named('alertAction', event.alert.action)],
                  [
                    t('investigation.network.priority'),
                    event.alert.severity === null ? null : String(event.alert.severity),
                  ],
                  [t('investigation.network.mitreTactics'), join(event.alert.mitreTacticIds)],
                  [t('investigation.network.mitre'), join(event.alert.mitreTechniqueIds)],
                  ...ruleMetadataItems(event.alert.metadata, t),
                ]}
                testId="alert-facts"
              />
            </Section>
          )}

          {event.dns && (
            <Section title={t('investigation.network.sections.dns')} testId="section-dns">
              <KeyValues
                items={[
                  [t('investigation.network.query'), event.dns.rrname],
                  [t('investigation.network.recordType'), event.dns.rrtype],
                  [t('investigation.network.dnsType'), named('dnsType', event.dns.type)],
                  [t('investigation.network.rcode'), event.dns.rcode],
                ]}
              />
              {event.dns.answers.length > 0 && (
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
                    {event.dns.answers.map((answer, index) => (
                      <Table.Tr key={index}>
                        <Table.Td className="vigil-inv-mono">{answer.rrname}</Table.Td>
                        <Table.Td>{answer.rrtype}</Table.Td>
                        <Table.Td className="vigil-inv-mono">{answer.rdata}</Table.Td>
                        <Table.Td>{answer.ttl}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Section>
          )}

          {event.http && (
            <Section title={t('investigation.network.sections.http')} testId="section-http">
              <KeyValues
                items={[
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
                ]}
              />
            </Section>
          )}

          {event.tls && (
            <Section title={t('investigation.network.sections.tls')} testId="section-tls">
              <KeyValues
                items={[
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
                ]}
              />
            </Section>
          )}

          {event.fileinfo && (
            <Section title={t('investigation.network.sections.file')} testId="section-file">
              <KeyValues
                items={[
                  [t('investigation.network.fileName'), event.fileinfo.filename],
                  [t('investigation.network.magic'), event.fileinfo.magic],
                  [t('investigation.network.size'), bytes(event.fileinfo.size)],
                  [t('investigation.network.state'), named('fileState', event.fileinfo.state)],
                  [t('investigation.network.fileStored'), yesNo(event.fileinfo.stored)],
                  [t('investigation.network.fileGaps'), yesNo(event.fileinfo.gaps)],
                  ['SHA-256', event.fileinfo.sha256 ? <HashValue value={event.fileinfo.sha256} /> : null],
                  ['SHA-1', event.fileinfo.sha1 ? <HashValue value={event.fileinfo.sha1} link={false} /> : null],
                  ['MD5', event.fileinfo.md5 ? <HashValue value={event.fileinfo.md5} link={false} /> : null],
                ]}
              />
            </Section>
          )}

          {event.flow && (
            <Section title={t('investigation.network.sections.traffic')}>
              <KeyValues
                items={[
                  [
                    t('investigation.network.toServer'),
                    `${bytes(event.flow.bytesToserver) ?? '—'} · ${event.flow.pktsToserver ?? '—'} ${t('investigation.network.packets')}`,
                  ],
                  [
                    t('investigation.network.toClient'),
                    `${bytes(event.flow.bytesToclient) ?? '—'} · ${event.flow.pktsToclient ?? '—'} ${t('investigation.network.packets')}`,
                  ],
                  [t('investigation.network.started'), event.flow.start ? formatDate(event.flow.start) : null],
                  [t('investigation.network.ended'), event.flow.end ? formatDate(event.flow.end) : null],
                  [t('investigation.network.state'), named('flowState', event.flow.state)],
                  [t('investigation.network.reason'), named('flowReason', event.flow.reason)],
                  ...tcpFlagsItems(event.tcp, t),
                ]}
              />
            </Section>
          )}

          {event.ssh && <SshSection ssh={event.ssh} />}
          {event.dhcp && <DhcpSection dhcp={event.dhcp} onIp={(value) => onFilter({ ip: value })} />}
          {event.smtp && <SmtpSection smtp={event.smtp} />}

          {event.anomaly && (
            <Section title={t('investigation.network.sections.anomaly')}>
              <KeyValues
                items={[
                  [t('investigation.network.anomalyType'), named('anomalyType', event.anomaly.type)],
                  [t('investigation.network.anomalyEvent'), event.anomaly.event],
                  [t('investigation.network.layer'), event.anomaly.layer],
                ]}
              />
            </Section>
          )}
        </>
      )}
    </DetailDrawer>
  );
}
