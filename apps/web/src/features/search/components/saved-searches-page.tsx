import './search.css';
import { ActionIcon, Badge, Group, Switch, Tooltip } from '@mantine/core';
import { IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedSearch as SavedSearchWire } from '@vigil/contract';
import { searchKinds, type SearchKind } from '@vigil/contract/query';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import {
  companyColumn,
  deleteColumn,
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import {
  deleteSavedSearch,
  runSavedSearch,
  savedSearchKeys,
  savedSearchList,
  searchPageUrl,
  updateSavedSearch,
  type SavedSearch,
} from '../api/saved-searches';
import { SavedSearchModal } from './saved-search-form';
import { SearchTabs } from './search-tabs';
import { SubscriptionSwitch } from './subscription-switch';

type Filters = typeof savedSearchList.filters;
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** Searches and reports → Saved searches: on/off, run now, change, delete; a name opens the search. */
export default function SavedSearchesPage() {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const mayChange = usePermission({ action: 'change', subject: 'search' });
  const mayDelete = usePermission({ action: 'delete', subject: 'search' });
  const model = usePagedListPage<SavedSearchWire, Filters>(savedSearchList);
  const [editing, setEditing] = useState<SavedSearch | null>(null);
  const removal = useRowDelete<SavedSearch>({
    remove: deleteSavedSearch,
    invalidate: [savedSearchKeys.all],
    title: t('search.saved.delete'),
    question: (row) => t('search.saved.deleteConfirm', { name: row.name }),
    deleted: (row) => t('search.saved.deleted', { name: row.name }),
  });
  const ask = removal.ask;
  const toggle = useMutation({
    mutationFn: (row: SavedSearch) => updateSavedSearch(row.id, { enabled: !row.enabled }),
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: t(answer.enabled ? 'search.saved.enabledNow' : 'search.saved.disabledNow', { name: answer.name }),
      });
      await queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
  const flip = toggle.mutate;
  const run = useMutation({
    mutationFn: (row: SavedSearch) => runSavedSearch(row.id),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('search.saved.ran', { hits: answer.hits, reports: answer.reports }) });
      await queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
      await queryClient.invalidateQueries({ queryKey: savedSearchKeys.reports });
    },
  });
  const runNow = run.mutate;

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('search.saved.searchPlaceholder') },
    {
      kind: 'choice',
      name: 'type',
      label: t('search.kindsLabel'),
      options: searchKinds.map((kind) => ({ value: kind, label: t(`search.kinds.${kind}`) })),
    },
    {
      kind: 'segmented',
      name: 'enabled',
      label: t('search.saved.fields.enabled'),
      options: [
        { value: undefined, label: t('search.saved.state.any') },
        { value: true, label: t('search.saved.state.on') },
        { value: false, label: t('search.saved.state.off') },
      ],
      testId: 'filter-enabled',
    },
    { kind: 'company', name: 'companyId', label: t('search.columns.company') },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const kindLabel = (kind: string) => t(`search.kinds.${kind as SearchKind}`);
    const sharingLabel = (sharing: SavedSearch['sharing']) => t(`search.saved.sharing.${sharing}`);
    const every = (minutes: number) => t('search.saved.every', { minutes: String(minutes) });
    const never = t('search.saved.never');
    const hitsLabel = (hits: number) => t('search.saved.hits', { count: hits.toLocaleString(i18n.language) });
    return presentColumns<SavedSearch>([
      {
        id: 'enabled',
        header: t('search.saved.fields.enabled'),
        width: '136px',
        render: (row) => (
          <span onClick={stop} className="vigil-cell-switch">
            <Switch
              checked={row.enabled}
              disabled={!mayChange}
              onChange={() => flip(row)}
              aria-label={t('search.saved.toggle', { name: row.name })}
              data-testid="saved-search-toggle"
            />
          </span>
        ),
      },
      {
        id: 'name',
        header: t('search.saved.fields.name'),
        width: 'minmax(180px, 1.2fr)',
        sortField: 'name',
        render: (row) =>
          stackCell(
            <Link to={searchPageUrl(row)} className="vigil-row__name" onClick={stop} title={row.name}>
              {row.name}
            </Link>,
            <span className="vigil-cell-mono" title={row.query}>
              {row.query || noValue}
            </span>,
          ),
      },
      {
        id: 'type',
        header: t('search.kindsLabel'),
        width: 'minmax(140px, 0.8fr)',
        render: (row) => (
          <Group gap={4} wrap="nowrap">
            {row.type.map((kind) => (
              <Badge key={kind} variant="light" size="sm" radius="sm">
                {kindLabel(kind)}
              </Badge>
            ))}
          </Group>
        ),
      },
      {
        id: 'schedule',
        header: t('search.saved.fields.schedule'),
        width: '150px',
        render: (row) => stackCell(every(row.intervalMinutes), sharingLabel(row.sharing)),
      },
      {
        id: 'lastRun',
        header: t('search.saved.fields.lastRun'),
        width: '160px',
        sortField: 'last_run_at',
        render: (row) =>
          row.lastRunAt === null
            ? never
            : stackCell(formatDate(row.lastRunAt), row.lastHits === null ? null : hitsLabel(row.lastHits)),
      },
      {
        id: 'mailMe',
        header: t('search.saved.fields.mailMeShort'),
        width: '100px',
        render: (row) => (
          <span onClick={stop} className="vigil-cell-switch">
            <SubscriptionSwitch saved={row} />
          </span>
        ),
      },
      {
        id: 'owner',
        header: t('search.saved.fields.owner'),
        width: 'minmax(110px, 0.6fr)',
        render: (row) => row.ownerName ?? noValue,
      },
      companyColumn<SavedSearch>(t('search.columns.company'), me.companies, '130px'),
      {
        id: 'actions',
        header: '',
        width: '76px',
        render: (row) => (
          <Group gap={2} wrap="nowrap" onClick={stop}>
            {mayChange && (
              <Tooltip label={t('search.saved.runNow')} openDelay={300}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  disabled={!row.enabled}
                  onClick={() => runNow(row)}
                  aria-label={t('search.saved.runNow')}
                  data-testid="saved-search-run"
                >
                  <IconPlayerPlay size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            {mayChange && (
              <Tooltip label={t('search.saved.edit')} openDelay={300}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  onClick={() => setEditing(row)}
                  aria-label={t('search.saved.edit')}
                  data-testid="saved-search-edit"
                >
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ),
      },
      deleteColumn<SavedSearch>({ header: t('common.actions'), delete: t('common.delete') }, mayDelete, ask, {
        iconOnly: true,
      }),
    ] satisfies (Column<SavedSearch> | null | false)[]);
  }, [t, i18n.language, me.companies, mayChange, mayDelete, ask, flip, runNow]);
  const rowLabel = useCallback((row: SavedSearch) => row.name, []);
  const filtered = Object.keys(model.list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t('search.saved.title')}
      subtitle={t('search.saved.subtitle')}
      above={<SearchTabs active="saved" />}
      filters={filters}
      table={{
        columns,
        label: t('search.saved.title'),
        testId: 'saved-searches-table',
        rowTestId: 'saved-search-row',
        rowLabel,
        rowHref: (row) => searchPageUrl(row),
        empty: filtered ? t('search.saved.nothingMatches') : t('search.saved.empty'),
        loadFailed: t('search.saved.loadFailed'),
      }}
      footerTestId="saved-searches"
    >
      {removal.dialog}
      <SavedSearchModal
        opened={editing !== null}
        saved={editing}
        start={{ query: '', type: ['network'] }}
        onClose={() => setEditing(null)}
      />
    </ListPage>
  );
}
