import type { CommittedAction as CommittedActionWire } from '@vigil/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { dateColumn, stackCell, usePagedListPage, type FilterField, ListPage } from '../../../components/list-page';
import type { Column } from '../../../components/list';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { alertUrl } from '../../triage';
import {
  committedActionList,
  fetchMatcherNames,
  matcherKeys,
  matcherPath,
  type CommittedAction,
} from '../api/matchers';
import { actionTypes } from '../lib/matcher-draft';
import { MatcherTabs } from './matcher-tabs';

type Filters = typeof committedActionList.filters;
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
const outcomeClass = {
  applied: 'vigil-pill--green',
  queued: 'vigil-pill--outline',
  skipped: 'vigil-pill--yellow',
} as const;

/** The columns of the actions taken, shared by the log page and a matcher's own page. */
export function useCommittedActionColumns(withMatcher: boolean): Column<CommittedAction>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const typeLabel = (type: string) =>
      (actionTypes as readonly string[]).includes(type)
        ? t(`matchers.actionType.${type}` as 'matchers.actionType.assign')
        : type;
    const outcomeLabel = {
      applied: t('matchers.outcome.applied'),
      queued: t('matchers.outcome.queued'),
      skipped: t('matchers.outcome.skipped'),
    };
    const columns: Column<CommittedAction>[] = [
      dateColumn<CommittedAction>('createdAt', t('matchers.log.time'), (row) => row.createdAt, {
        sortField: 'created_at',
      }),
    ];
    if (withMatcher)
      columns.push({
        id: 'matcher',
        header: t('matchers.log.matcher'),
        width: 'minmax(150px, 1fr)',
        render: (row) =>
          row.matcherName === null ? (
            <span className="vigil-cell-dim">#{row.matcherId}</span>
          ) : (
            <Link to={matcherPath(row.matcherId)} className="vigil-row__name" onClick={stop} title={row.matcherName}>
              {row.matcherName}
            </Link>
          ),
      });
    columns.push(
      {
        id: 'alert',
        header: t('matchers.log.alert'),
        width: 'minmax(200px, 1.6fr)',
        render: (row) => (
          <Link to={alertUrl(row.alertId)} onClick={stop} title={row.alertTitle ?? undefined} data-testid="log-alert">
            <span className="vigil-cell-mono">#{row.alertId}</span> {row.alertTitle ?? ''}
          </Link>
        ),
      },
      {
        id: 'action',
        header: t('matchers.log.action'),
        width: 'minmax(190px, 1fr)',
        render: (row) => <span title={typeLabel(row.action)}>{typeLabel(row.action)}</span>,
      },
      {
        id: 'outcome',
        header: t('matchers.log.outcome'),
        width: 'minmax(200px, 1.5fr)',
        render: (row) =>
          stackCell(
            <span className={`vigil-pill ${outcomeClass[row.outcome]}`} data-testid="log-outcome">
              {outcomeLabel[row.outcome]}
            </span>,
            row.reason && <span title={row.reason}>{row.reason}</span>,
          ),
      },
    );
    return columns;
  }, [t, withMatcher]);
}

/** Settings → Committed actions → Actions taken: what every matcher did to which alert, and how it went. */
export default function MatcherLogPage() {
  const { t } = useTranslation();
  const model = usePagedListPage<CommittedActionWire, Filters>(committedActionList);
  const columns = useCommittedActionColumns(true);
  const names = useQuery({
    queryKey: matcherKeys.names,
    queryFn: ({ signal }) => fetchMatcherNames(signal),
    staleTime: 60_000,
  });
  const filters: FilterField<Filters>[] = [
    {
      kind: 'ids',
      name: 'matcherId',
      label: t('matchers.log.filterMatcher'),
      options: (names.data?.results ?? []).map((matcher) => ({ value: matcher.id, label: matcher.name })),
      testId: 'filter-matcher',
    },
    {
      kind: 'choice',
      name: 'action',
      label: t('matchers.log.filterAction'),
      options: actionTypes.map((value) => ({ value, label: t(`matchers.actionType.${value}`) })),
      testId: 'filter-action',
    },
    {
      kind: 'numbers',
      name: 'alertId',
      label: t('matchers.log.filterAlert'),
      accept: (value) => Number.isSafeInteger(value) && value > 0,
      testId: 'filter-alert',
    },
    { kind: 'company', name: 'companyId', label: t('matchers.fields.company') },
  ];
  return (
    <ListPage
      model={model}
      title={t('matchers.title')}
      subtitle={t('matchers.subtitle')}
      above={<MatcherTabs active="log" />}
      filters={filters}
      table={{
        columns,
        label: t('matchers.log.title'),
        testId: 'matcher-log-table',
        rowTestId: 'matcher-log-row',
        rowHref: (row) => alertUrl(row.alertId),
        empty: Object.keys(model.list.filters).length > 0 ? t('matchers.nothingMatches') : t('matchers.log.empty'),
        loadFailed: t('matchers.log.loadFailed'),
      }}
      footerTestId="matcher-log"
    />
  );
}
