import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { stackCell, useAddToFilter, useScrolledListPage, type FilterField } from '../../../components/list-page';
import { severityPill, useTriageLabels } from '../../triage';
import { networkEventOf, networkList, type StoredEvent } from '../api/investigation';
import { networkCodeLabel, networkEventTypes } from '../lib/codes';
import { networkSummary } from '../lib/summaries';
import { EventListPage } from './event-list-page';
import { NetworkEventDrawer } from './network-event-drawer';
import { EventTypeBadge, HashValue, Pivot, eventColumns, eventTimeColumn, segmentsField } from './shared';

type Filters = typeof networkList.filters;

const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
const protocols = ['TCP', 'UDP', 'ICMP', 'IPv6-ICMP', 'SCTP'];
const appProtocols = ['dns', 'http', 'tls', 'smtp', 'smb', 'ssh', 'ftp', 'krb5', 'dcerpc', 'rdp'];
const column = eventColumns(networkEventOf);
const isPort = (port: number) => Number.isInteger(port) && port >= 0 && port <= 65_535;

/** A flow in one line of text: `10.0.0.1:51514 → 203.0.113.80:443`. */
function flowText(event: {
  srcIp: string | null;
  srcPort: number | null;
  destIp: string | null;
  destPort: number | null;
}) {
  const end = (ip: string | null, port: number | null) => `${ip ?? '—'}${port === null ? '' : `:${port}`}`;
  return `${end(event.srcIp, event.srcPort)} → ${end(event.destIp, event.destPort)}`;
}

/** Investigation → Network: Suricata events with their filters in the URL, a virtualised list and a detail drawer. */
export default function NetworkPage() {
  const { t, i18n } = useTranslation();
  const model = useScrolledListPage<StoredEvent, Filters>(networkList);
  const { setFilters } = model.list;
  const [open, setOpen] = useState<StoredEvent | null>(null);

  const addIp = useAddToFilter(model.list, 'ip');

  const labels = useTriageLabels();
  const columns = useMemo<Column<StoredEvent>[]>(
    () => [
      eventTimeColumn(t('investigation.common.time')),
      column('type', t('investigation.network.type'), '88px', (event) => <EventTypeBadge type={event.eventType} />),
      // Source over destination: each address with its port is whole on its own line.
      column('flow', t('investigation.network.flow'), 'minmax(200px, 1fr)', (event) => (
        <span className="vigil-cell-stack" title={flowText(event)}>
          <span>
            {event.srcIp ? <Pivot value={event.srcIp} onPivot={addIp} /> : '—'}
            {event.srcPort !== null && <span className="vigil-inv-dim vigil-inv-mono">:{event.srcPort}</span>}
          </span>
          <span>
            <span className="vigil-inv-arrow">→</span>
            {event.destIp ? <Pivot value={event.destIp} onPivot={addIp} /> : '—'}
            {event.destPort !== null && <span className="vigil-inv-dim vigil-inv-mono">:{event.destPort}</span>}
          </span>
        </span>
      )),
      column('proto', t('investigation.network.protoApp'), '96px', (event) => (
        <span>
          {event.proto ?? '—'}
          {event.appProto && <span className="vigil-inv-dim"> / {event.appProto}</span>}
        </span>
      )),
      column('summary', t('investigation.network.summary'), 'minmax(200px, 2fr)', (event) => {
        const summary = networkSummary(event, i18n.language, networkCodeLabel);
        return stackCell(summary.main || '—', summary.sha256 ? <HashValue value={summary.sha256} /> : summary.detail);
      }),
      column('severity', t('investigation.network.severity'), '100px', ({ severity }) =>
        severity ? severityPill(severity, labels.severity[severity]) : null,
      ),
      column('sensor', t('investigation.network.sensor'), 'minmax(90px, 0.6fr)', (event) => (
        <span className="vigil-inv-dim">{event.host ?? '—'}</span>
      )),
    ],
    [t, i18n.language, addIp, labels],
  );

  const fields: FilterField<Filters>[] = [
    {
      kind: 'choice',
      name: 'eventType',
      label: t('investigation.network.type'),
      options: networkEventTypes.map((value) => ({ value, label: networkCodeLabel('eventType', value) })),
      testId: 'filter-event-type',
    },
    {
      kind: 'tags',
      name: 'ip',
      label: t('investigation.network.ip'),
      placeholder: t('investigation.network.ipPlaceholder'),
      testId: 'filter-ip',
    },
    {
      kind: 'choice',
      name: 'severity',
      label: t('investigation.network.severity'),
      options: severities.map((value) => ({ value, label: t(`triage.severity.${value}`) })),
    },
  ];
  const more: FilterField<Filters>[] = [
    { kind: 'tags', name: 'srcIp', label: t('investigation.network.source'), testId: 'filter-src-ip' },
    { kind: 'tags', name: 'destIp', label: t('investigation.network.destination'), testId: 'filter-dest-ip' },
    { kind: 'numbers', name: 'srcPort', label: t('investigation.network.srcPort'), accept: isPort },
    { kind: 'numbers', name: 'destPort', label: t('investigation.network.destPort'), accept: isPort },
    { kind: 'choice', name: 'proto', label: t('investigation.network.proto'), options: protocols },
    { kind: 'tags', name: 'appProto', label: t('investigation.network.appProto'), suggestions: appProtocols },
    { kind: 'tags', name: 'sensor', label: t('investigation.network.sensor') },
    { kind: 'search', name: 'sshSoftware', label: t('investigation.network.sshSoftware'), testId: 'filter-ssh' },
    {
      kind: 'tags',
      name: 'dhcpMac',
      label: t('investigation.network.clientMac'),
      placeholder: t('investigation.network.macPlaceholder'),
      testId: 'filter-mac',
    },
    { kind: 'search', name: 'dhcpHostname', label: t('investigation.network.dhcpHostname') },
    { kind: 'tags', name: 'dhcpAssignedIp', label: t('investigation.network.assignedIp') },
    { kind: 'search', name: 'smtpAddress', label: t('investigation.network.smtpAddress') },
    { kind: 'search', name: 'tlsSerial', label: t('investigation.network.serial') },
    segmentsField('fileStored', t('investigation.network.fileStored'), t('common.any'), [
      [true, t('investigation.network.storedYes')],
      [false, t('investigation.network.storedNo')],
    ]),
  ];

  return (
    <EventListPage
      section="network"
      model={model}
      columns={columns}
      filters={fields}
      moreFilters={more}
      onOpen={setOpen}
    >
      <NetworkEventDrawer
        row={open}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          setOpen(null);
          if (change.ip) addIp(change.ip);
          if (change.communityId) setFilters({ communityId: change.communityId });
        }}
      />
    </EventListPage>
  );
}
