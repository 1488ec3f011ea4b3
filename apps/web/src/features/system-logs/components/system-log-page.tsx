import { Group, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import type { SystemLog as SystemLogWire } from '@vigil/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import {
  auditActionLabel,
  auditActions,
  auditObjectLabel,
  auditObjectTypes,
} from '../../../components/audit/audit-labels';
import { ChangesTable } from '../../../components/audit/changes-table';
import type { Column } from '../../../components/list';
import {
  cellAction,
  dateColumn,
  DetailDrawer,
  ListPage,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { systemLogList, type SystemLog } from '../api/system-logs';

type Filters = typeof systemLogList.filters;

/** Settings → System logs: the audit log, with its filters, ordering and page in the URL; a row opens its changes. */
export default function SystemLogPage() {
  const { t } = useTranslation();
  const model = usePagedListPage<SystemLogWire, Filters>(systemLogList);
  const [open, setOpen] = useState<SystemLog | null>(null);
  const filtered = Object.keys(model.list.filters).length > 0;

  const filters: FilterField<Filters>[] = [
    {
      kind: 'search',
      name: 'search',
      label: t('systemLogs.search'),
      placeholder: t('systemLogs.searchPlaceholder'),
    },
    {
      kind: 'tags',
      name: 'action',
      label: t('systemLogs.action'),
      placeholder: t('systemLogs.any'),
      suggestions: auditActions,
      describe: auditActionLabel,
      maxTags: 50,
      testId: 'filter-action',
    },
    {
      kind: 'tags',
      name: 'objectType',
      label: t('systemLogs.objectType'),
      placeholder: t('systemLogs.any'),
      suggestions: auditObjectTypes,
      describe: auditObjectLabel,
      maxTags: 50,
    },
  ];
  const dates: FilterField<Filters>[] = [
    { kind: 'dateTime', name: 'dateTimeFrom', label: t('systemLogs.from') },
    { kind: 'dateTime', name: 'dateTimeTo', label: t('systemLogs.to') },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<SystemLog>[]>(() => {
    const system = t('systemLogs.system');
    const impersonated = t('systemLogs.impersonated');
    const showChanges = t('systemLogs.showChanges');
    return [
      dateColumn('dateTime', t('systemLogs.dateTime'), (log: SystemLog) => log.dateTime, {
        sortField: 'date_time',
        format: 'isoDateTimeSeconds',
        width: '170px',
      }),
      {
        id: 'user',
        header: t('systemLogs.user'),
        width: 'minmax(140px, 1fr)',
        sortField: 'username',
        render: (log) => (
          <>
            {log.username ?? <span className="vigil-cell-dimmed">{system}</span>}
            {log.impersonatorId !== null && <span className="vigil-pill vigil-pill--orange">{impersonated}</span>}
          </>
        ),
      },
      {
        id: 'action',
        header: t('systemLogs.action'),
        width: '170px',
        sortField: 'action',
        render: (log) => (
          <span className="vigil-pill vigil-pill--outline vigil-table__badge" data-action={log.action}>
            {auditActionLabel(log.action)}
          </span>
        ),
      },
      {
        id: 'object',
        header: t('systemLogs.object'),
        width: 'minmax(200px, 2fr)',
        sortField: 'object_type',
        render: (log) => (
          <>
            <span className="vigil-cell-dimmed">{auditObjectLabel(log.objectType)}</span>
            {log.objectRepr !== null && <span className="vigil-table__object"> {log.objectRepr}</span>}
          </>
        ),
      },
      {
        id: 'ip',
        header: t('systemLogs.ip'),
        width: '140px',
        render: (log) =>
          log.ip === null ? (
            <span className="vigil-cell-dimmed">n/a</span>
          ) : (
            <span className="vigil-cell-mono">{log.ip}</span>
          ),
      },
      {
        id: 'changes',
        header: t('systemLogs.changes'),
        width: '90px',
        align: 'end',
        render: (log) => {
          const changed = Object.keys(log.changes).length;
          return cellAction({
            label: changed > 0 ? changed : null,
            icon: <IconChevronRight size={16} />,
            ariaLabel: showChanges,
            onClick: () => setOpen(log),
          });
        },
      },
    ];
  }, [t]);

  return (
    <ListPage
      model={model}
      title={t('systemLogs.title')}
      subtitle={t('systemLogs.subtitle')}
      filters={filters}
      secondFilters={dates}
      table={{
        columns,
        label: t('systemLogs.title'),
        testId: 'system-log-table',
        rowTestId: 'system-log-row',
        onRowClick: (log) => setOpen(log),
        empty: filtered ? t('systemLogs.nothingMatches') : t('systemLogs.empty'),
        loadFailed: t('systemLogs.loadFailed'),
      }}
      footerTestId="system-log"
    >
      <DetailDrawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        size="lg"
        testId="system-log-drawer"
        title={
          open && (
            <Group gap="sm">
              <span className="vigil-pill vigil-pill--outline">{auditActionLabel(open.action)}</span>
              <Text fw={600}>
                {auditObjectLabel(open.objectType)}
                {open.objectRepr !== null && ` ${open.objectRepr}`}
              </Text>
            </Group>
          )
        }
      >
        {open && (
          <>
            <Text size="sm" c="dimmed">
              {formatDate(open.dateTime, 'isoDateTimeSeconds')} · {open.username ?? t('systemLogs.system')}
              {open.ip !== null && ` · ${open.ip}`}
            </Text>
            <ChangesTable changes={open.changes} />
          </>
        )}
      </DetailDrawer>
    </ListPage>
  );
}
