import { ActionIcon, Button, Drawer, Text, Tooltip } from '@mantine/core';
import { IconBinaryTree } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { stackCell, useAddToFilter, useScrolledListPage, type FilterField } from '../../../components/list-page';
import { endpointEventOf, endpointList, type StoredEvent } from '../api/investigation';
import { endpointCategoryLabel } from '../lib/codes';
import { actionLabel, actionOptions } from '../lib/actions';
import { accountLabel, endpointSummary } from '../lib/summaries';
import { EndpointEventDrawer, OutcomeBadge } from './endpoint-event-drawer';
import { EventListPage } from './event-list-page';
import { ProcessTreeView } from './process-tree-view';
import { Pivot, eventColumns, hashFilterField, eventTimeColumn } from './shared';

type Filters = typeof endpointList.filters;

const HOUR = 3_600_000;
const column = eventColumns(endpointEventOf);
/** Integrity levels as Windows names them, lowest first. */
const integrityLevels = ['Untrusted', 'Low', 'Medium', 'MediumPlus', 'High', 'System', 'Protected'];

interface TreeTarget {
  hostName: string;
  from: string;
  to: string;
  companyId?: number;
  focusPid?: number | null;
}

/** The window a tree opened from an event shows: twelve hours either side of it. */
function aroundEvent(row: StoredEvent): TreeTarget {
  const at = Date.parse(row.ts);
  const event = endpointEventOf(row);
  return {
    hostName: event.host.name ?? '',
    from: new Date(at - 12 * HOUR).toISOString(),
    to: new Date(at + 12 * HOUR).toISOString(),
    companyId: row.companyId,
    focusPid: event.process?.pid ?? null,
  };
}

/** Investigation → Endpoint events: host activity with filters in the URL, a detail drawer and each host's process tree. */
export default function EndpointEventsPage() {
  const { t } = useTranslation();
  const model = useScrolledListPage<StoredEvent, Filters>(endpointList);
  const { filters } = model.list;
  const [open, setOpen] = useState<StoredEvent | null>(null);
  const [tree, setTree] = useState<TreeTarget | null>(null);

  const addHost = useAddToFilter(model.list, 'hostName');
  const addUser = useAddToFilter(model.list, 'userName');

  const columns = useMemo<Column<StoredEvent>[]>(
    () => [
      eventTimeColumn(t('investigation.common.time')),
      column('host', t('investigation.endpoint.host'), 'minmax(100px, 1fr)', ({ host }) =>
        host.name ? <Pivot value={host.name} onPivot={addHost} /> : '—',
      ),
      column('user', t('investigation.endpoint.user'), 'minmax(110px, 1fr)', ({ user }) =>
        user?.name ? <Pivot value={user.name} label={accountLabel(user) ?? ''} onPivot={addUser} /> : '—',
      ),
      column('process', t('investigation.endpoint.process'), 'minmax(110px, 1fr)', ({ process }) =>
        process
          ? stackCell(
              process.name ?? '—',
              process.pid !== null && <span className="vigil-inv-mono">PID {process.pid}</span>,
            )
          : '—',
      ),
      // Named actions ("Попытка соединения", "Connection attempted") are longer than the codes were.
      column('action', t('investigation.endpoint.action'), 'minmax(140px, 1.2fr)', ({ event }) =>
        // A sender's word outside the vocabulary is shown as it came.
        stackCell(
          actionLabel(t, event.action) ?? event.shipperAction ?? event.code ?? '—',
          event.category.map(endpointCategoryLabel).join(', '),
        ),
      ),
      column('outcome', t('investigation.endpoint.outcome'), '96px', ({ event }) =>
        event.outcome ? <OutcomeBadge outcome={event.outcome} /> : null,
      ),
      column('summary', t('investigation.endpoint.details'), 'minmax(160px, 2fr)', (event) => {
        const summary = endpointSummary(event) || '—';
        return (
          <span className="vigil-inv-mono" title={summary}>
            {summary}
          </span>
        );
      }),
      column('tree', '', '48px', (event, row) =>
        event.host.name ? (
          <Tooltip label={t('investigation.endpoint.showTree')} withArrow>
            <ActionIcon
              variant="subtle"
              aria-label={t('investigation.endpoint.showTree')}
              onClick={() => setTree(aroundEvent(row))}
              data-testid="row-process-tree"
            >
              <IconBinaryTree size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null,
      ),
    ],
    [t, addHost, addUser],
  );

  const fields: FilterField<Filters>[] = [
    { kind: 'tags', name: 'hostName', label: t('investigation.endpoint.host'), testId: 'filter-host' },
    { kind: 'tags', name: 'userName', label: t('investigation.endpoint.user') },
    { kind: 'tags', name: 'processName', label: t('investigation.endpoint.process') },
    {
      kind: 'choice',
      name: 'action',
      label: t('investigation.endpoint.action'),
      options: actionOptions(t),
      searchable: true,
      testId: 'filter-action',
    },
    {
      kind: 'choice',
      name: 'outcome',
      label: t('investigation.endpoint.outcome'),
      options: (['success', 'failure', 'unknown'] as const).map((value) => ({
        value,
        label: t(`investigation.endpoint.outcomes.${value}`),
      })),
    },
    { kind: 'tags', name: 'targetProcessName', label: t('investigation.endpoint.targetProcess') },
    {
      kind: 'tags',
      name: 'grantedAccess',
      label: t('investigation.endpoint.grantedAccess'),
      placeholder: '0x1010',
    },
    { kind: 'tags', name: 'originalFileName', label: t('investigation.endpoint.originalFileName') },
    {
      kind: 'choice',
      name: 'integrityLevel',
      label: t('investigation.endpoint.integrityLevel'),
      options: integrityLevels,
    },
    { kind: 'tags', name: 'logonId', label: t('investigation.endpoint.logonId'), placeholder: '0x3e7' },
    hashFilterField('hash', t('investigation.endpoint.hash'), model.list),
  ];
  const singleHost = filters.hostName?.length === 1 ? filters.hostName[0]! : null;

  return (
    <EventListPage
      section="endpoint"
      model={model}
      columns={columns}
      filters={fields}
      onOpen={setOpen}
      actions={
        singleHost && (
          <Button
            leftSection={<IconBinaryTree size={16} />}
            variant="light"
            onClick={() =>
              setTree({
                hostName: singleHost,
                from: filters.tsFrom ?? new Date(Date.now() - 24 * HOUR).toISOString(),
                to: filters.tsTo ?? new Date().toISOString(),
                companyId: filters.companyId?.length === 1 ? filters.companyId[0] : undefined,
              })
            }
            data-testid="host-process-tree"
          >
            {t('investigation.endpoint.hostTree', { host: singleHost })}
          </Button>
        )
      }
    >
      <EndpointEventDrawer
        row={open}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          setOpen(null);
          if (change.hostName) addHost(change.hostName);
          if (change.userName) addUser(change.userName);
        }}
        onProcessTree={(row) => {
          setOpen(null);
          setTree(aroundEvent(row));
        }}
      />

      <Drawer
        opened={tree !== null}
        onClose={() => setTree(null)}
        position="right"
        size="min(1100px, 92vw)"
        title={tree ? <Text fw={600}>{t('investigation.tree.title', { host: tree.hostName })}</Text> : null}
        data-testid="tree-drawer"
      >
        {tree && <ProcessTreeView {...tree} />}
      </Drawer>
    </EventListPage>
  );
}
