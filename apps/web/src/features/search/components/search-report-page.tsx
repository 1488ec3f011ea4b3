import './search.css';
import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { SearchKind } from '@vigil/contract/query';
import { LoadError } from '../../../components/list/list-error';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link, useParams } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { fetchSavedSearch, fetchSearchReport, savedSearchKeys, searchPageUrl } from '../api/saved-searches';
import { summaryOf } from '../lib/hit-summary';
import { SearchExportMenu } from './search-export-menu';
import { SubscriptionSwitch } from './subscription-switch';

/** One report of a saved search: when it ran, the query as it was, the hits and the first of them. */
export default function SearchReportPage() {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const companyName = (companyId: number) => me.companies.find((c) => c.id === companyId)?.name ?? `#${companyId}`;
  const id = Number(useParams().id);
  const report = useQuery({
    queryKey: savedSearchKeys.report(id),
    queryFn: ({ signal }) => fetchSearchReport(id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  // Its saved search, while the caller sees it, for the "Mail me the reports" switch.
  const seesSavedSearches = usePermission({ action: 'view', subject: 'search' });
  const savedSearchId = report.data?.savedSearchId ?? null;
  const saved = useQuery({
    queryKey: savedSearchKeys.one(savedSearchId ?? 0),
    queryFn: ({ signal }) => fetchSavedSearch(savedSearchId!, signal),
    enabled: savedSearchId !== null && seesSavedSearches,
    retry: false,
  });
  if (report.error) return <LoadError message={t('search.reports.loadFailed')} onRetry={() => void report.refetch()} />;
  const data = report.data;
  if (!data) return null;
  // The search again over the events this run read, a second either side.
  const from = new Date(Date.parse(data.from) - 1000).toISOString();
  const to = new Date(Date.parse(data.to) + 1000).toISOString();
  const reopen = searchPageUrl(data, from, to);
  const again = { kinds: [...data.type], query: data.query, from, to };
  return (
    <Stack gap="md" className="vigil-search-report-page">
      <PageHeader
        title={data.savedSearchName}
        subtitle={t('search.reports.ranOn', { when: formatDate(data.ranAt, 'isoDateTimeSeconds') })}
        actions={
          <Group gap="md">
            {saved.data && <SubscriptionSwitch saved={saved.data} withLabel />}
            <Button
              component={Link}
              to={reopen}
              leftSection={<IconSearch size={16} />}
              data-testid="search-report-reopen"
            >
              {t('search.reports.reopen')}
            </Button>
            <SearchExportMenu body={again} disabled={data.hitCount === 0} />
          </Group>
        }
      />
      <Panel title={t('search.reports.facts')} testId="search-report-facts">
        <dl className="vigil-detail-kv">
          <dt>{t('search.reports.fields.hits')}</dt>
          <dd data-testid="search-report-hits">{data.hitCount.toLocaleString(i18n.language)}</dd>
          <dt>{t('search.kindsLabel')}</dt>
          <dd>
            <Group gap={4}>
              {data.type.map((kind) => (
                <Badge key={kind} variant="light" size="sm" radius="sm">
                  {t(`search.kinds.${kind as SearchKind}`)}
                </Badge>
              ))}
            </Group>
          </dd>
          <dt>{t('search.queryLabel')}</dt>
          <dd className="vigil-cell-mono">{data.query || '—'}</dd>
          <dt>{t('search.reports.fields.span')}</dt>
          <dd>
            {formatDate(data.from, 'isoDateTimeSeconds')} — {formatDate(data.to, 'isoDateTimeSeconds')}
          </dd>
          <dt>{t('search.columns.company')}</dt>
          <dd>{companyName(data.companyId)}</dd>
          {data.alertId !== null && (
            <>
              <dt>{t('search.reports.fields.alert')}</dt>
              <dd>
                <Anchor component={Link} to={`/alerts/${data.alertId}`} data-testid="search-report-alert">
                  #{data.alertId}
                </Anchor>
              </dd>
            </>
          )}
        </dl>
      </Panel>
      <Panel
        title={t('search.reports.firstHits', { count: String(data.firstHits.length) })}
        testId="search-report-first-hits"
      >
        {data.firstHits.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('search.noResults')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped verticalSpacing={6} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={170}>{t('search.columns.ts')}</Table.Th>
                  <Table.Th w={120}>{t('search.columns.kind')}</Table.Th>
                  <Table.Th>{t('search.columns.summary')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.firstHits.map((hit) => (
                  <Table.Tr key={`${hit.kind}:${hit.id}`} data-testid="search-report-hit">
                    <Table.Td className="vigil-cell-mono">{formatDate(hit.ts, 'isoDateTimeSeconds')}</Table.Td>
                    <Table.Td>{t(`search.kinds.${hit.kind}`)}</Table.Td>
                    <Table.Td className="vigil-cell-mono vigil-search-summary">{summaryOf(hit)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Panel>
    </Stack>
  );
}
