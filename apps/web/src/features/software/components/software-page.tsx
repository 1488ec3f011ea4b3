import './software.css';
import type { SoftwareProduct } from '@vigil/contract';
import { useMemo } from 'react';
import { ListPage, usePagedListPage, type FilterField } from '../../../components/list-page';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInUser } from '../../../lib/session';
import { productList, productPath, type Product } from '../api/software';
import { countCell, softwareColumns } from './software-columns';
import { SoftwareTabs } from './software-tabs';

type Filters = typeof productList.filters;

/** My company → Software: the products the estate runs, with their versions and hosts; filters in the URL. */
export default function SoftwarePage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const model = usePagedListPage<SoftwareProduct, Filters>(productList);
  const filtered = Object.keys(model.list.filters).length > 0;

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('software.searchPlaceholder') },
    { kind: 'search', name: 'vendor', label: t('software.fields.vendor'), testId: 'filter-vendor' },
    { kind: 'dateTime', name: 'firstSeenFrom', label: t('software.newSince'), testId: 'filter-first-seen' },
  ];
  const more: FilterField<Filters>[] = [
    { kind: 'search', name: 'name', label: t('software.fields.name'), testId: 'filter-name' },
    { kind: 'company', name: 'companyId', label: t('software.fields.company'), testId: 'filter-company' },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(
    () =>
      softwareColumns<Product>(t, me.companies, {
        productId: (row) => row.id,
        nameHeader: t('software.fields.name'),
        lastSeenSort: 'last_seen',
        own: [
          {
            id: 'versions',
            header: t('software.fields.versions'),
            width: '100px',
            render: (row) => countCell(row.versionCount),
          },
          {
            id: 'installs',
            header: t('software.fields.installs'),
            width: '90px',
            render: (row) => countCell(row.installCount),
          },
        ],
      }),
    [t, me.companies],
  );

  return (
    <ListPage
      model={model}
      title={t('software.title')}
      subtitle={t('software.subtitle')}
      above={<SoftwareTabs active="products" />}
      filters={filters}
      moreFilters={more}
      table={{
        columns,
        label: t('software.title'),
        testId: 'software-table',
        rowTestId: 'software-row',
        rowHeight: 52,
        rowHref: (row) => productPath(row.id),
        empty: filtered ? t('software.nothingMatches') : t('software.empty'),
        loadFailed: t('software.loadFailed'),
      }}
      footerTestId="software"
    />
  );
}
