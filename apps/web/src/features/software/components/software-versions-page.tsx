import './software.css';
import type { SoftwareVersion } from '@vigil/contract';
import { useMemo } from 'react';
import { ListPage, usePagedListPage, type FilterField } from '../../../components/list-page';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInUser } from '../../../lib/session';
import { productPath, versionList, type Version } from '../api/software';
import { countCell, softwareColumns } from './software-columns';
import { SoftwareTabs } from './software-tabs';

type Filters = typeof versionList.filters;

/** My company → Software → Versions: every version of every product, with the hosts that run it. */
export default function SoftwareVersionsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const model = usePagedListPage<SoftwareVersion, Filters>(versionList);
  const filtered = Object.keys(model.list.filters).length > 0;

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('software.versionSearchPlaceholder') },
    { kind: 'search', name: 'version', label: t('software.fields.version'), testId: 'filter-version' },
    { kind: 'dateTime', name: 'firstSeenFrom', label: t('software.newSince'), testId: 'filter-first-seen' },
    { kind: 'company', name: 'companyId', label: t('software.fields.company'), testId: 'filter-company' },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(
    () =>
      softwareColumns<Version>(t, me.companies, {
        productId: (row) => row.productId,
        nameHeader: t('software.fields.product'),
        own: [
          {
            id: 'version',
            header: t('software.fields.version'),
            width: 'minmax(120px, 1fr)',
            sortField: 'version',
            render: (row) => (
              <span className="vigil-cell-mono" title={row.version}>
                {row.version}
              </span>
            ),
          },
          {
            id: 'assets',
            header: t('software.fields.assets'),
            width: '90px',
            render: (row) => countCell(row.assetCount),
          },
        ],
      }),
    [t, me.companies],
  );

  return (
    <ListPage
      model={model}
      title={t('software.versionsTitle')}
      subtitle={t('software.versionsSubtitle')}
      above={<SoftwareTabs active="versions" />}
      filters={filters}
      table={{
        columns,
        label: t('software.versionsTitle'),
        testId: 'software-versions-table',
        rowTestId: 'software-version-row',
        rowHeight: 52,
        rowHref: (row) => productPath(row.productId),
        empty: filtered ? t('software.nothingMatches') : t('software.versionsEmpty'),
        loadFailed: t('software.loadFailed'),
      }}
      footerTestId="software-versions"
    />
  );
}
