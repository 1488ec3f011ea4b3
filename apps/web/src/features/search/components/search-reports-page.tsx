import './search.css';
import type { SearchReport as SearchReportWire } from '@vigil/contract';
import { useCallback, useMemo } from 'react';
import type { Column } from '../../../components/list';
import {
  companyColumn,
  ListPage,
  presentColumns,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { searchReportList, searchReportPath, type SearchReport } from '../api/saved-searches';
import { SearchTabs } from './search-tabs';

type Filters = typeof searchReportList.filters;
const hrefOf = (report: SearchReport) => searchReportPath(report.id);

/** Searches and reports → Search reports: what each run of a saved search found, newest first. */
export default function SearchReportsPage() {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const model = usePagedListPage<SearchReportWire, Filters>(searchReportList);

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('search.reports.searchPlaceholder') },
    { kind: 'company', name: 'companyId', label: t('search.columns.company') },
  ];

  const columns = useMemo(
    () =>
      presentColumns<SearchReport>([
        {
          id: 'ranAt',
          header: t('search.reports.fields.ranAt'),
          width: '160px',
          sortField: 'ran_at',
          render: (row) => <span className="vigil-cell-mono">{formatDate(row.ranAt, 'isoDateTimeSeconds')}</span>,
        },
        {
          id: 'name',
          header: t('search.reports.fields.savedSearch'),
          width: 'minmax(200px, 1.4fr)',
          render: (row) =>
            stackCell(
              <Link to={hrefOf(row)} className="vigil-row__name" title={row.savedSearchName}>
                {row.savedSearchName}
              </Link>,
              <span className="vigil-cell-mono" title={row.query}>
                {row.query}
              </span>,
            ),
        },
        {
          id: 'hits',
          header: t('search.reports.fields.hits'),
          width: '110px',
          sortField: 'hit_count',
          align: 'end',
          render: (row) => row.hitCount.toLocaleString(i18n.language),
        },
        {
          id: 'span',
          header: t('search.reports.fields.span'),
          width: '170px',
          render: (row) => stackCell(formatDate(row.from), formatDate(row.to)),
        },
        companyColumn<SearchReport>(t('search.columns.company'), me.companies, '140px'),
      ] satisfies (Column<SearchReport> | null | false)[]),
    [t, i18n.language, me.companies],
  );
  const rowLabel = useCallback((row: SearchReport) => row.savedSearchName, []);

  return (
    <ListPage
      model={model}
      title={t('search.reports.title')}
      subtitle={t('search.reports.subtitle')}
      above={<SearchTabs active="reports" />}
      filters={filters}
      table={{
        columns,
        label: t('search.reports.title'),
        testId: 'search-reports-table',
        rowTestId: 'search-report-row',
        rowLabel,
        rowHref: hrefOf,
        empty: t('search.reports.empty'),
        loadFailed: t('search.reports.loadFailed'),
      }}
      footerTestId="search-reports"
    />
  );
}
