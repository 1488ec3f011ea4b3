import { IconBinaryTree } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { EventDrawer, type EventSection } from '../../../components/event-drawer';
import { formatDate } from '../../../lib/dates';
import { useEndpointEvent, type EndpointEventView, type StoredEvent } from '../api/investigation';
import { endpointActionLabel, endpointCategoryLabel } from '../lib/codes';
import { actionLabel } from '../lib/actions';
import { accountLabel } from '../lib/summaries';
import { useAssetLookup } from '../../assets/api/asset-lookup';
import { AssetLink } from '../../assets/components/asset-link';
import { EmployeeLink } from '../../employees/components/employee-link';
import { CodeName, Pivot, hashFields, type EventDrawerProps, mono, useCompanyName, useEventDetail } from './shared';

const number = (value: number | null) => (value === null ? null : String(value));

/** One endpoint event: what happened, on which host, by which process, to what; then the record as it arrived. */
export function EndpointEventDrawer({
  row,
  onClose,
  onFilter,
  onProcessTree,
}: EventDrawerProps<{ hostName?: string; userName?: string }> & { onProcessTree: (row: StoredEvent) => void }) {
  const { t } = useTranslation();
  const { event, drawer } = useEventDetail<EndpointEventView>(row, useEndpointEvent(row?.id ?? null, row?.ts), {
    onClose,
    testId: 'endpoint-drawer',
  });
  const companyName = useCompanyName();
  // The host links to its asset.
  const assets = useAssetLookup({ companyId: row?.companyId ?? 0, at: row?.ts, hosts: [event?.host.name] });
  if (!row || !event) return <EventDrawer {...drawer} heading={null} sections={null} />;

  const { process, targetProcess, file, network, registry, dns } = event;
  const eventData = Object.entries(event.eventData ?? {});
  const sections: EventSection[] = [
    {
      id: 'event',
      title: t('investigation.endpoint.sections.event'),
      fields: [
        [t('investigation.common.time'), formatDate(row.ts, 'isoDateTimeSeconds')],
        [
          t('investigation.endpoint.action'),
          event.event.action ? <CodeName code={event.event.action} name={endpointActionLabel} /> : null,
        ],
        [t('investigation.endpoint.shipperAction'), event.event.shipperAction],
        [t('investigation.endpoint.category'), event.event.category.map(endpointCategoryLabel).join(', ')],
        [t('investigation.endpoint.code'), event.event.code],
        [t('investigation.endpoint.provider'), event.event.provider],
        [t('investigation.endpoint.channel'), event.event.channel],
        [t('investigation.endpoint.sourceFormat'), event.sourceFormat.toUpperCase()],
        [t('investigation.common.company'), companyName(row.companyId)],
      ],
    },
    {
      id: 'host',
      title: t('investigation.endpoint.sections.host'),
      fields: [
        [
          t('investigation.endpoint.host'),
          event.host.name ? (
            <span className="vigil-inv-with-asset">
              <Pivot value={event.host.name} onPivot={(v) => onFilter({ hostName: v })} />
              <AssetLink asset={assets.get(`host:${event.host.name}`)} />
            </span>
          ) : null,
        ],
        [t('investigation.endpoint.hostIps'), event.host.ip.join(', ')],
        [t('investigation.endpoint.os'), event.host.os],
        [
          t('investigation.endpoint.user'),
          event.user?.name ? (
            <span className="vigil-inv-with-asset">
              <Pivot
                value={event.user.name}
                label={accountLabel(event.user) ?? ''}
                onPivot={(v) => onFilter({ userName: v })}
              />
              <EmployeeLink companyId={row.companyId} account={accountLabel(event.user)} />
            </span>
          ) : null,
        ],
        [t('investigation.endpoint.logonId'), mono(event.user?.logonId)],
        [t('investigation.endpoint.targetUser'), accountLabel(event.targetUser)],
        [t('investigation.endpoint.group'), accountLabel(event.group)],
      ],
    },
    process && {
      id: 'process',
      title: t('investigation.endpoint.sections.process'),
      testId: 'section-process',
      fields: [
        [t('investigation.endpoint.process'), process.name],
        ['PID', number(process.pid)],
        [t('investigation.endpoint.executable'), mono(process.executable)],
        [t('investigation.endpoint.commandLine'), mono(process.commandLine)],
        [t('investigation.endpoint.processUser'), process.user],
        [t('investigation.endpoint.integrityLevel'), process.integrityLevel],
        [t('investigation.endpoint.originalFileName'), process.originalFileName],
        [t('investigation.endpoint.entityId'), mono(process.entityId)],
        ...hashFields(process.hash),
        [
          t('investigation.endpoint.parent'),
          process.parent ? `${process.parent.name ?? '—'} (PID ${process.parent.pid ?? '—'})` : null,
        ],
        [t('investigation.endpoint.parentCommandLine'), mono(process.parent?.commandLine)],
        [t('investigation.endpoint.parentUser'), process.parent?.user],
      ],
      pivots: [
        Boolean(event.host.name) && {
          label: t('investigation.endpoint.showTree'),
          icon: <IconBinaryTree size={14} />,
          onClick: () => onProcessTree(row),
          testId: 'drawer-process-tree',
        },
      ],
    },
    targetProcess && {
      id: 'target-process',
      title: t('investigation.endpoint.sections.targetProcess'),
      testId: 'section-target-process',
      fields: [
        [t('investigation.endpoint.process'), targetProcess.name],
        ['PID', number(targetProcess.pid)],
        [t('investigation.endpoint.executable'), mono(targetProcess.executable)],
        [t('investigation.endpoint.grantedAccess'), mono(targetProcess.grantedAccess)],
        [t('investigation.endpoint.entityId'), mono(targetProcess.entityId)],
      ],
    },
    file && {
      id: 'file',
      title: t('investigation.endpoint.sections.file'),
      fields: [
        [t('investigation.endpoint.filePath'), mono(file.path)],
        [t('investigation.endpoint.fileName'), file.name],
        [t('investigation.endpoint.originalFileName'), file.originalFileName],
        ...hashFields(file.hash),
      ],
    },
    network && {
      id: 'network',
      title: t('investigation.endpoint.sections.network'),
      fields: [
        [t('investigation.network.source'), network.srcIp],
        [t('investigation.network.srcPort'), number(network.srcPort)],
        [t('investigation.network.destination'), network.destIp],
        [t('investigation.network.destPort'), number(network.destPort)],
        [t('investigation.network.proto'), network.protocol],
      ],
    },
    registry && {
      id: 'registry',
      title: t('investigation.endpoint.sections.registry'),
      fields: [
        [t('investigation.endpoint.registryPath'), mono(registry.path)],
        [t('investigation.endpoint.registryValue'), registry.value],
        [t('investigation.endpoint.registryData'), mono(registry.data)],
      ],
    },
    dns && {
      id: 'dns',
      title: t('investigation.endpoint.sections.dns'),
      fields: [
        [t('investigation.network.query'), dns.question],
        [t('investigation.endpoint.answers'), dns.answers.join(', ')],
      ],
    },
    eventData.length > 0 && {
      id: 'event-data',
      title: t('investigation.endpoint.sections.eventData'),
      fields: eventData.map(([key, value]) => [key, value === null ? '—' : mono(String(value))]),
    },
  ];

  return (
    <EventDrawer
      {...drawer}
      heading={{
        title:
          actionLabel(t, event.event.action) ?? event.event.shipperAction ?? t('investigation.endpoint.drawerTitle'),
        after: event.event.outcome && <OutcomeBadge outcome={event.event.outcome} />,
      }}
      sections={sections}
    />
  );
}

const outcomeColor: Record<string, string> = { success: 'green', failure: 'red', unknown: 'grey' };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const { t } = useTranslation();
  const known = outcome === 'success' || outcome === 'failure' || outcome === 'unknown';
  return (
    <span className={`vigil-pill vigil-pill--${outcomeColor[outcome] ?? 'grey'}`}>
      {known ? t(`investigation.endpoint.outcomes.${outcome}`) : outcome}
    </span>
  );
}
