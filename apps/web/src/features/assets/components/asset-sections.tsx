import { Anchor, Group, Table, Text } from '@mantine/core';
import type { AlertSeverity, AlertStatus, IncidentStatus } from '@vigil/contract';
import { Panel } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import {
  alertStatusPill,
  alertUrl,
  endpointEventsUrl,
  incidentStatusPill,
  incidentUrl,
  severityPill,
  useTriageLabels,
  withQuery,
} from '../../triage';
import type { Asset, AssetActivity } from '../api/assets';
import { useAssetLabels } from './asset-cells';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Open alerts that name the asset, newest first, each a link to its page. */
export function AssetAlerts({ activity }: { activity: AssetActivity }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  return (
    <Panel
      title={t('assets.page.alerts')}
      testId="asset-alerts"
      extra={<span className="vigil-cell-dim">{activity.alerts.length}</span>}
    >
      {activity.alerts.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('assets.page.alertsEmpty')}
        </Text>
      ) : (
        <Table verticalSpacing={6} horizontalSpacing="xs">
          <Table.Tbody>
            {activity.alerts.map((alert) => (
              <Table.Tr key={alert.id} data-testid="asset-alert">
                <Table.Td w={110}>
                  {severityPill(alert.severity as AlertSeverity, labels.severity[alert.severity as AlertSeverity])}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={alertUrl(alert.id)} size="sm" fw={600}>
                    {alert.title}
                  </Anchor>
                  <Group gap={8} mt={2} wrap="nowrap">
                    {alertStatusPill(alert.status as AlertStatus, labels.alertStatus[alert.status as AlertStatus])}
                    <Text size="xs" c="dimmed" truncate>
                      {t('assets.page.matched', { value: alert.matched })}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td w={140} className="vigil-cell-mono">
                  {formatDate(alert.lastSeen, 'isoDateTime')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Panel>
  );
}

/** Open incidents the asset is part of. */
export function AssetIncidents({ activity }: { activity: AssetActivity }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  return (
    <Panel
      title={t('assets.page.incidents')}
      testId="asset-incidents"
      extra={<span className="vigil-cell-dim">{activity.incidents.length}</span>}
    >
      {activity.incidents.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('assets.page.incidentsEmpty')}
        </Text>
      ) : (
        <Table verticalSpacing={6} horizontalSpacing="xs">
          <Table.Tbody>
            {activity.incidents.map((incident) => (
              <Table.Tr key={incident.id} data-testid="asset-incident">
                <Table.Td w={110}>
                  {severityPill(
                    incident.severity as AlertSeverity,
                    labels.severity[incident.severity as AlertSeverity],
                  )}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={incidentUrl(incident.id)} size="sm" fw={600}>
                    {incident.title}
                  </Anchor>
                </Table.Td>
                <Table.Td w={120}>
                  {incidentStatusPill(
                    incident.status as IncidentStatus,
                    labels.incidentStatus[incident.status as IncidentStatus],
                  )}
                </Table.Td>
                <Table.Td w={140} className="vigil-cell-mono">
                  {formatDate(incident.createdAt, 'isoDateTime')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Panel>
  );
}

/** Events of each kind in the last 7 days, with a pivot to the investigation page filtered on the asset. */
export function AssetEvents({ asset, activity }: { asset: Asset; activity: AssetActivity }) {
  const { t } = useTranslation();
  const mayNetwork = usePermission({ action: 'view', subject: 'network' });
  const mayEndpoint = usePermission({ action: 'view', subject: 'eclipse_events' });
  const since = new Date(Date.now() - 7 * DAY_MS).toISOString();
  const addresses = [...new Set([...asset.ips, ...activity.ipHistory.map((claim) => claim.ip)])];
  const pivots: Record<string, string | null> = {
    network:
      mayNetwork && addresses.length > 0
        ? withQuery('/investigation/network', { ip: addresses, ts_from: since })
        : null,
    endpoint: mayEndpoint ? endpointEventsUrl({ host_name: asset.name, ts_from: since }) : null,
    mail: null,
  };
  return (
    <Panel title={t('assets.page.events')} testId="asset-events">
      <div className="vigil-asset-events">
        {activity.events.map((events) => (
          <div key={events.kind} className="vigil-asset-event" data-testid={`asset-events-${events.kind}`}>
            <Text size="xs" c="dimmed">
              {t(`assets.page.eventKind.${events.kind}`)}
            </Text>
            <Group gap={6} justify="space-between" align="baseline" wrap="nowrap">
              <span className="vigil-asset-event__count">{events.count}</span>
              {pivots[events.kind] && events.count > 0 && (
                <Anchor component={Link} to={pivots[events.kind]!} size="xs" data-testid="asset-events-pivot">
                  {t('assets.page.openEvents')}
                </Anchor>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {events.newest
                ? t('assets.page.eventsNewest', { date: formatDate(events.newest, 'isoDateTime') })
                : t('assets.page.eventsNone')}
            </Text>
          </div>
        ))}
      </div>
    </Panel>
  );
}

/** Which addresses the asset held and when, newest first. */
export function AssetIpHistory({ activity }: { activity: AssetActivity }) {
  const { t } = useTranslation();
  const labels = useAssetLabels();
  return (
    <Panel title={t('assets.page.ipHistory')} testId="asset-ip-history">
      {activity.ipHistory.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('assets.page.ipHistoryEmpty')}
        </Text>
      ) : (
        <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('assets.ipHosts.ip')}</Table.Th>
              <Table.Th>{t('assets.page.from')}</Table.Th>
              <Table.Th>{t('assets.page.to')}</Table.Th>
              <Table.Th>{t('assets.page.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {activity.ipHistory.map((claim) => (
              <Table.Tr key={claim.id}>
                <Table.Td className="vigil-cell-mono">{claim.ip}</Table.Td>
                <Table.Td className="vigil-cell-mono">{formatDate(claim.firstSeen, 'isoDateTime')}</Table.Td>
                <Table.Td className="vigil-cell-mono">{formatDate(claim.lastSeen, 'isoDateTime')}</Table.Td>
                <Table.Td>{labels.ipSource[claim.source]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Panel>
  );
}

/** Software the inventory says is installed. */
export function AssetSoftware({ activity }: { activity: AssetActivity }) {
  const { t } = useTranslation();
  return (
    <Panel
      title={t('assets.page.software')}
      testId="asset-software"
      extra={<span className="vigil-cell-dim">{activity.software.length}</span>}
    >
      {activity.software.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('assets.page.softwareEmpty')}
        </Text>
      ) : (
        <div className="vigil-asset-software">
          <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('assets.page.product')}</Table.Th>
                <Table.Th>{t('assets.page.vendor')}</Table.Th>
                <Table.Th>{t('assets.page.version')}</Table.Th>
                <Table.Th>{t('assets.page.firstSeen')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {activity.software.map((item) => (
                <Table.Tr key={`${item.productId}-${item.version}`}>
                  <Table.Td fw={600}>{item.name}</Table.Td>
                  <Table.Td>{item.vendor}</Table.Td>
                  <Table.Td className="vigil-cell-mono">{item.version}</Table.Td>
                  <Table.Td className="vigil-cell-mono">{formatDate(item.firstSeen, 'isoDate')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Panel>
  );
}

/** The asset's life: when it was first and last seen, added, archived, and the open alerts on it. */
export function AssetTimeline({ asset, activity }: { asset: Asset; activity: AssetActivity | undefined }) {
  const { t } = useTranslation();
  const history = activity?.history ?? [];
  const actionLabel: Record<string, string> = {
    create: t('assets.page.historyAction.create'),
    update: t('assets.page.historyAction.update'),
    merge: t('assets.page.historyAction.merge'),
    delete: t('assets.page.historyAction.delete'),
    import: t('assets.page.historyAction.import'),
  };
  const items: { at: string; text: string; href?: string }[] = [
    ...(asset.firstSeen ? [{ at: asset.firstSeen, text: t('assets.page.firstSeen') }] : []),
    ...(history.some((entry) => entry.action === 'create')
      ? []
      : [{ at: asset.createdAt, text: t('assets.page.created') }]),
    ...history.map((entry) => ({
      at: entry.at,
      text: t('assets.page.historyEntry', {
        action: actionLabel[entry.action] ?? entry.action,
        who: entry.username ?? t('assets.page.discovery'),
      }),
    })),
    ...(asset.lastSeen ? [{ at: asset.lastSeen, text: t('assets.page.lastSeen') }] : []),
    ...(asset.archivedAt ? [{ at: asset.archivedAt, text: t('assets.page.archived') }] : []),
    ...(activity?.alerts ?? []).map((alert) => ({
      at: alert.firstSeen,
      text: t('assets.page.alertRaised', { title: alert.title }),
      href: alertUrl(alert.id),
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <Panel title={t('assets.page.timeline')} testId="asset-timeline">
      <ol className="vigil-asset-timeline">
        {items.map((item, index) => (
          <li key={`${item.at}-${index}`}>
            <time className="vigil-cell-mono vigil-cell-dim" dateTime={item.at}>
              {formatDate(item.at, 'isoDateTime')}
            </time>
            {item.href ? (
              <Anchor component={Link} to={item.href} size="sm">
                {item.text}
              </Anchor>
            ) : (
              <span>{item.text}</span>
            )}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
