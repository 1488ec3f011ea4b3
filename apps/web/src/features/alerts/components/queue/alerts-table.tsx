import { Button, Stack, Text } from '@mantine/core';
import { alertSources } from '@vigil/contract/client';
import { useCallback, useMemo } from 'react';
import { useTranslation } from '../../../../lib/i18n';
import { VirtualTable, type Column } from '../../../../components/list/virtual-table';
import { formatDate } from '../../../../lib/dates';
import { useSignedInUser } from '../../../../lib/session';
import { alertStatusPill, severityPill, useTriageLabels } from '../../../triage';
import type { Alert } from '../../api/alerts';
import { useAssignableUsers, useCompanyNames, userLabel } from '../../api/hooks';
import { sourceIcon } from '../source-icon';
import { rowIdOf, type AlertQueue } from './use-alert-queue';

const ROW_HEIGHT = 40;

function rowClassName(row: Alert): string {
  return `vigil-alert-row vigil-alert-row--${row.status}`;
}

/** The queue's columns. Rows call no hooks: every text a cell shows is read here, once per language. */
function useAlertColumns(numberFormat: Intl.NumberFormat): Column<Alert>[] {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const users = useAssignableUsers();
  const companies = useCompanyNames();
  const labels = useTriageLabels();
  return useMemo<Column<Alert>[]>(() => {
    const sourceLabels = Object.fromEntries(alertSources.map((source) => [source, t(`triage.source.${source}`)]));
    const unassigned = t('triage.unassigned');
    const meLabel = t('triage.me');
    const all: (Column<Alert> | null)[] = [
      {
        id: 'severity',
        header: t('alerts.columns.severity'),
        // The longest pill, Russian «Критическая», whole.
        width: '128px',
        sortField: 'severity',
        render: (row) => severityPill(row.severity, labels.severity[row.severity]),
      },
      {
        id: 'title',
        header: t('alerts.columns.title'),
        width: 'minmax(212px, 4fr)',
        render: (row) => (
          <span className="vigil-alert-title" data-status={row.status}>
            {sourceIcon(row.source, sourceLabels[row.source] ?? row.source)}
            <span className="vigil-alert-title__text" title={row.title}>
              {row.title}
            </span>
          </span>
        ),
      },
      {
        id: 'status',
        header: t('alerts.columns.status'),
        width: '104px',
        render: (row) => alertStatusPill(row.status, labels.alertStatus[row.status]),
      },
      {
        id: 'assignee',
        header: t('alerts.columns.assignee'),
        width: 'minmax(88px, 1fr)',
        // Plain elements in cells: a row is mounted each time it scrolls into view.
        render: (row) =>
          row.assigneeId === null ? (
            <span className="vigil-cell-dimmed">{unassigned}</span>
          ) : (
            <span className="vigil-ellipsis" data-me={row.assigneeId === me.id || undefined}>
              {row.assigneeId === me.id ? meLabel : userLabel(users.byId.get(row.assigneeId), row.assigneeId)}
            </span>
          ),
      },
      companies.many
        ? {
            id: 'company',
            header: t('alerts.columns.company'),
            width: 'minmax(88px, 1fr)',
            render: (row) => {
              const name = companies.byId.get(row.companyId) ?? `#${row.companyId}`;
              return (
                <span className="vigil-ellipsis" title={name}>
                  {name}
                </span>
              );
            },
          }
        : null,
      {
        id: 'tags',
        header: t('alerts.columns.tags'),
        width: 'minmax(48px, 0.5fr)',
        render: (row) => (
          <span className="vigil-alert-tags" title={row.tags.join(', ')}>
            {row.tags.map((tag) => (
              <span key={tag} className="vigil-pill vigil-pill--outline">
                {tag}
              </span>
            ))}
          </span>
        ),
      },
      {
        id: 'count',
        header: t('alerts.columns.count'),
        width: '76px',
        sortField: 'count',
        align: 'end',
        render: (row) => <span className="vigil-num">{numberFormat.format(row.count)}</span>,
      },
      {
        id: 'lastSeen',
        header: t('alerts.columns.lastSeen'),
        width: '144px',
        sortField: 'last_seen',
        render: (row) => <span className="vigil-num">{formatDate(row.lastSeen, 'isoDateTime')}</span>,
      },
    ];
    return all.filter((column): column is Column<Alert> => column !== null);
  }, [t, labels, me.id, users.byId, companies, numberFormat]);
}

/** The queue's virtual table, with the "new alerts" pill over it. */
export function AlertsTable({
  queue,
  selectable,
  numberFormat,
  onOpen,
}: {
  queue: AlertQueue;
  selectable: boolean;
  numberFormat: Intl.NumberFormat;
  onOpen: (row: Alert) => void;
}) {
  const { t } = useTranslation();
  const columns = useAlertColumns(numberFormat);
  // Stable, so the table keeps the strings it worked out for rows already seen.
  const rowLabel = useCallback((row: Alert) => t('alerts.queue.selectRow', { id: row.id }), [t]);
  const { list, rows, count, selection, newCount } = queue;
  return (
    <div className="vigil-alerts-table" ref={queue.tableRef}>
      {newCount > 0 && (
        <div className="vigil-new-alerts">
          <Button radius="xl" size="compact-md" onClick={() => void queue.showNew()} data-testid="new-alerts-pill">
            {t('alerts.queue.newAlerts', { count: newCount })}
          </Button>
        </div>
      )}
      <VirtualTable<Alert>
        rows={rows}
        rowKey={rowIdOf}
        columns={columns}
        ariaLabel={t('alerts.queue.tableLabel')}
        rowHeight={ROW_HEIGHT}
        total={count}
        ordering={list.ordering}
        onSort={list.toggleOrdering}
        selection={selectable ? (selection as never) : undefined}
        rowId={rowIdOf}
        rowLabel={rowLabel}
        activeIndex={queue.activeIndex}
        onActiveIndexChange={queue.setActiveIndex}
        onRowClick={(row) => onOpen(row)}
        rowHref={(row) => `/alerts/${row.id}`}
        rowClassName={rowClassName}
        hasMore={queue.queue.hasMore}
        loadMore={queue.queue.loadMore}
        loading={queue.queue.isLoading}
        loadingMore={queue.queue.isLoadingMore}
        empty={
          <Stack gap={4} align="center">
            <Text fw={600}>{t('alerts.queue.empty')}</Text>
            <Text size="sm" c="dimmed">
              {t('alerts.queue.emptyHint')}
            </Text>
          </Stack>
        }
        testId="alerts-table"
      />
    </div>
  );
}
