import './search.css';
import { Badge, Button, Chip, Group, Stack, Text } from '@mantine/core';
import { IconBookmark, IconHelp, IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { SearchHit } from '@vigil/contract';
import { fieldFor, searchKinds, type QueryProblem, type SearchKind } from '@vigil/contract/query';
import { useMemo, useState } from 'react';
import { VirtualTable, type Column } from '../../../components/list';
import { LoadError } from '../../../components/list/list-error';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import type { Camelize } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { EndpointEventDrawer } from '../../investigation/components/endpoint-event-drawer';
import { NetworkEventDrawer } from '../../investigation/components/network-event-drawer';
import { TimeRangeFilter, useCompanyName } from '../../investigation/components/shared';
import type { StoredEvent } from '../../investigation/api/investigation';
import { alertUrl, endpointEventsUrl, mailMessageUrl } from '../../triage/pivots';
import { runSearch, searchHistogram, searchKeys } from '../api/search';
import { summaryOf } from '../lib/hit-summary';
import { queryProblem } from '../lib/query-problems';
import {
  effectiveRange,
  readSearchState,
  withTerm,
  withText,
  writeSearchState,
  type SearchState,
} from '../lib/search-state';
import { QueryHelp } from './query-help';
import { QueryInput } from './query-input';
import { SavedSearchModal } from './saved-search-form';
import { SearchExportMenu } from './search-export-menu';
import { SearchTabs } from './search-tabs';
import { SearchHistogramBars } from './search-histogram';

type Hit = Camelize<SearchHit>;

const PAGE_SIZE = 100;
/** The address parameter that opens the query-language help. */
const HELP_PARAM = 'help';
const ROW_HEIGHT = 40;

/** The permission that lets a user read each kind of data. */
const kindSubject = {
  network: 'network',
  endpoint: 'eclipse_events',
  mail: 'mailing',
  alerts: 'alerts',
} as const satisfies Record<SearchKind, string>;

/** A problem with its place shown: the query with the part at fault marked. */
function ProblemLine({ query, problem }: { query: string; problem: QueryProblem }) {
  const { t, i18n } = useTranslation();
  // The parser words its problems in English; other languages say them by their code.
  const message = i18n.language === 'en' ? problem.message : t(`search.problems.${problem.code}`);
  const end = Math.max(problem.end, problem.position);
  return (
    <Stack gap={2} data-testid="search-problem">
      <Text size="sm" c="red.5">
        {t('search.problemAt', { position: String(problem.position + 1), message })}
      </Text>
      <div className="vigil-search-problem" aria-hidden="true">
        {query.slice(0, problem.position)}
        <mark>{query.slice(problem.position, end)}</mark>
        {query.slice(end)}
      </div>
    </Stack>
  );
}

/**
 * Searches → Search: the data, the time range and a query (docs/query-language.md) in the URL; the
 * hits over time, and every hit in a scrolled table whose rows open the event's drawer or page.
 */
export default function SearchPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const me = useSignedInUser();
  const companyName = useCompanyName();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readSearchState(params), [params]);
  const [draft, setDraft] = useState(state.query);
  const [draftOf, setDraftOf] = useState(state.query);
  // A new address (back, a shared link) brings its query into the box.
  if (draftOf !== state.query) {
    setDraftOf(state.query);
    setDraft(state.query);
  }
  const [open, setOpen] = useState<Hit | null>(null);
  const [saving, setSaving] = useState(false);
  const maySave = usePermission({ action: 'add', subject: 'search' });

  const allowed = {
    network: usePermission({ action: 'view', subject: kindSubject.network }),
    endpoint: usePermission({ action: 'view', subject: kindSubject.endpoint }),
    mail: usePermission({ action: 'view', subject: kindSubject.mail }),
    alerts: usePermission({ action: 'view', subject: kindSubject.alerts }),
  };
  const kinds = state.kinds.filter((kind) => allowed[kind]);
  const problem = useMemo(() => queryProblem(draft, kinds), [draft, kinds]);
  const runningProblem = useMemo(() => queryProblem(state.query, kinds), [state.query, kinds]);

  // The time range: the URL's, or the last day up to the moment the search was asked for.
  const [now, setNow] = useState(() => Date.now());
  const range = effectiveRange(state, now);
  const body = useMemo(
    () => ({ kinds, query: state.query, from: range.from, to: range.to }),
    [kinds, state.query, range.from, range.to],
  );
  const ready = kinds.length > 0 && runningProblem === null;

  const set = (next: Partial<SearchState>) => {
    setNow(Date.now());
    setParams(writeSearchState({ ...state, ...next }));
  };
  const run = () => {
    if (problem) return;
    set({ query: draft.trim() });
  };

  // The query-language help, open while the address says `help=1` (so a link can open it).
  const helpOpen = params.get(HELP_PARAM) === '1';
  const showHelp = (open: boolean) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (open) next.set(HELP_PARAM, '1');
      else next.delete(HELP_PARAM);
      return next;
    });

  const results = useInfiniteQuery({
    queryKey: searchKeys.run(body, '-ts'),
    queryFn: ({ pageParam, signal }) => runSearch(body, pageParam, PAGE_SIZE, '-ts', signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
    enabled: ready,
  });
  const histogram = useQuery({
    queryKey: searchKeys.histogram(body),
    queryFn: ({ signal }) => searchHistogram(body, signal),
    enabled: ready,
  });
  const rows = useMemo(() => results.data?.pages.flatMap((page) => page.results) ?? [], [results.data]);
  const count = results.data?.pages[0]?.count;

  const columns = useMemo((): Column<Hit>[] => {
    const kindLabel = Object.fromEntries(searchKinds.map((kind) => [kind, t(`search.kinds.${kind}`)]));
    return [
      {
        id: 'ts',
        header: t('search.columns.ts'),
        width: '170px',
        render: (row) => <span className="vigil-cell-mono">{formatDate(row.ts, 'isoDateTimeSeconds')}</span>,
      },
      {
        id: 'kind',
        header: t('search.columns.kind'),
        width: '130px',
        render: (row) => (
          <Badge variant="light" size="sm" radius="sm">
            {kindLabel[row.kind]}
          </Badge>
        ),
      },
      ...(me.companies.length > 1
        ? [
            {
              id: 'company',
              header: t('search.columns.company'),
              width: '150px',
              render: (row: Hit) => <span className="vigil-search-summary">{companyName(row.companyId)}</span>,
            },
          ]
        : []),
      {
        id: 'summary',
        header: t('search.columns.summary'),
        width: 'minmax(240px, 1fr)',
        render: (row) => (
          <span className="vigil-search-summary vigil-cell-mono" title={summaryOf(row)}>
            {summaryOf(row)}
          </span>
        ),
      },
    ];
  }, [t, me.companies.length, companyName]);

  const openHit = (hit: Hit) => {
    if (hit.kind === 'alerts') navigate(alertUrl(hit.id));
    else if (hit.kind === 'mail') navigate(mailMessageUrl(hit.id));
    else setOpen(hit);
  };
  const asStored = (hit: Hit | null): StoredEvent | null =>
    hit ? { id: hit.id, companyId: hit.companyId, ts: hit.ts, batchId: 0, event: hit.event } : null;
  // A value from a drawer narrows the search: by its field when every kind chosen has it, else as free text.
  const pivot = (field: string, value: string) => {
    setOpen(null);
    const next = fieldFor(kinds, field) ? withTerm(state.query, field, value) : withText(state.query, value);
    setDraft(next);
    set({ query: next });
  };

  return (
    <Stack gap="md" className="vigil-search-page">
      <PageHeader
        title={t('search.title')}
        subtitle={
          count === undefined ? t('search.subtitle') : t('search.found', { count: count.toLocaleString(i18n.language) })
        }
      />
      <SearchTabs active="search" />
      <form
        className="vigil-search-form"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <Group gap="lg" align="flex-end" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('search.kindsLabel')}
            </Text>
            <Chip.Group
              multiple
              value={kinds}
              onChange={(value) => set({ kinds: value.filter((v): v is SearchKind => v in kindSubject) })}
            >
              <Group gap={6}>
                {searchKinds.map((kind) => (
                  <Chip
                    key={kind}
                    value={kind}
                    size="sm"
                    disabled={!allowed[kind]}
                    wrapperProps={{ 'data-testid': `search-kind-${kind}` }}
                  >
                    {t(`search.kinds.${kind}`)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Stack>
          <TimeRangeFilter
            from={range.from}
            to={range.to}
            onChange={(next) => set({ from: next.tsFrom, to: next.tsTo })}
          />
        </Group>
        <QueryInput value={draft} onChange={setDraft} onRun={run} kinds={kinds} problem={problem} range={range} />
        {problem && <ProblemLine query={draft} problem={problem} />}
        {kinds.length === 0 && (
          <Text size="sm" c="red.5">
            {t('search.chooseKind')}
          </Text>
        )}
        <Group gap="sm">
          <Button
            type="submit"
            leftSection={<IconSearch size={16} />}
            disabled={problem !== null || kinds.length === 0}
            data-testid="search-run"
          >
            {t('search.run')}
          </Button>
          <Button
            variant="subtle"
            leftSection={<IconHelp size={16} />}
            onClick={() => showHelp(true)}
            data-testid="search-syntax"
          >
            {t('search.help.open')}
          </Button>
          {maySave && (
            <Button
              variant="subtle"
              leftSection={<IconBookmark size={16} />}
              disabled={problem !== null || kinds.length === 0}
              onClick={() => setSaving(true)}
              data-testid="search-save"
            >
              {t('search.saved.saveSearch')}
            </Button>
          )}
          <SearchExportMenu body={body} disabled={!ready || count === 0} />
        </Group>
      </form>

      {histogram.data && histogram.data.buckets.length > 0 && (
        <SearchHistogramBars histogram={histogram.data} onNarrow={(narrow) => set(narrow)} />
      )}
      {results.error !== null && results.error !== undefined && (
        <LoadError message={t('search.loadFailed')} onRetry={() => void results.refetch()} />
      )}
      <div className="vigil-search-results" data-testid="search-results" data-loading={results.isFetching}>
        <VirtualTable<Hit>
          rows={rows}
          rowKey={(row) => `${row.kind}:${row.id}`}
          columns={columns}
          ariaLabel={t('search.title')}
          rowHeight={ROW_HEIGHT}
          total={count}
          onRowClick={(row) => openHit(row)}
          hasMore={results.hasNextPage}
          loadMore={() => void results.fetchNextPage()}
          loading={ready && results.isPending}
          loadingMore={results.isFetchingNextPage}
          rowTestId="search-row"
          empty={
            <Text c="dimmed" size="sm">
              {ready ? t('search.noResults') : t('search.subtitle')}
            </Text>
          }
        />
      </div>

      <QueryHelp
        opened={helpOpen}
        onClose={() => showHelp(false)}
        onPick={(example) => {
          setDraft(example);
          showHelp(false);
        }}
        kinds={kinds}
      />
      <SavedSearchModal
        opened={saving}
        saved={null}
        start={{ query: draft.trim(), type: kinds }}
        onClose={() => setSaving(false)}
      />
      <NetworkEventDrawer
        row={open?.kind === 'network' ? asStored(open) : null}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          if (change.ip) pivot('ip', change.ip);
          else if (change.communityId) pivot('community_id', change.communityId);
        }}
      />
      <EndpointEventDrawer
        row={open?.kind === 'endpoint' ? asStored(open) : null}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          if (change.hostName) pivot('host_name', change.hostName);
          else if (change.userName) pivot('user_name', change.userName);
        }}
        onProcessTree={(row) => {
          const host = (row.event as { host?: { name?: string | null } }).host?.name ?? undefined;
          navigate(endpointEventsUrl({ host_name: host }));
        }}
      />
    </Stack>
  );
}
