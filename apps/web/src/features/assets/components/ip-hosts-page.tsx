import './assets.css';
import { Anchor } from '@mantine/core';
import type { IpHost as IpHostWire } from '@vigil/contract';
import { ipHostSourceValues } from '@vigil/contract/client';
import { useMemo } from 'react';
import type { Column } from '../../../components/list';
import {
  dateColumn,
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { ipHostList, type IpHost } from '../api/assets';
import { companyNames, useAssetLabels } from './asset-cells';

type Filters = typeof ipHostList.filters;

/** My company → Asset IP hosts: which asset held which address when. */
export default function IpHostsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const labels = useAssetLabels();
  const model = usePagedListPage<IpHostWire, Filters>(ipHostList);
  const { list } = model;

  const filters: FilterField<Filters>[] = [
    {
      kind: 'search',
      name: 'ip',
      label: t('assets.ipHosts.ip'),
      placeholder: t('assets.ipHosts.ipPlaceholder'),
      testId: 'filter-ip',
    },
    {
      kind: 'choice',
      name: 'source',
      label: t('assets.ipHosts.source'),
      options: ipHostSourceValues.map((value) => ({ value, label: labels.ipSource[value] })),
      testId: 'filter-source',
    },
    { kind: 'company', name: 'companyId', label: t('assets.ipHosts.company') },
  ];

  const columns = useMemo(() => {
    // The company goes under the asset for people who see several: a column of its own would not fit.
    const companyName = companyNames(me.companies);
    return presentColumns<IpHost>([
      {
        id: 'ip',
        header: t('assets.ipHosts.ip'),
        width: 'minmax(140px, 1fr)',
        sortField: 'ip',
        render: (row) => <span className="vigil-cell-mono">{row.ip}</span>,
      },
      {
        id: 'asset',
        header: t('assets.ipHosts.asset'),
        width: 'minmax(180px, 2fr)',
        render: (row) =>
          stackCell(
            <Anchor component={Link} to={`/my-company/assets/${row.assetId}`} size="sm">
              {row.assetName}
            </Anchor>,
            companyName(row.companyId),
          ),
      },
      {
        id: 'mac',
        header: t('assets.ipHosts.mac'),
        width: '150px',
        render: (row) => (row.mac ? <span className="vigil-cell-mono">{row.mac}</span> : noValue),
      },
      dateColumn<IpHost>('firstSeen', t('assets.ipHosts.from'), (row) => row.firstSeen, { sortField: 'first_seen' }),
      dateColumn<IpHost>('lastSeen', t('assets.ipHosts.to'), (row) => row.lastSeen, { sortField: 'last_seen' }),
      {
        id: 'source',
        header: t('assets.ipHosts.source'),
        width: '150px',
        render: (row) => labels.ipSource[row.source],
      },
    ] satisfies (Column<IpHost> | null | false)[]);
  }, [t, me.companies, labels]);
  const filtered = Object.keys(list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t('assets.ipHosts.title')}
      subtitle={t('assets.ipHosts.subtitle')}
      filters={filters}
      table={{
        columns,
        label: t('assets.ipHosts.title'),
        testId: 'ip-hosts-table',
        rowTestId: 'ip-host-row',
        rowHeight: me.companies.length > 1 ? 52 : 40,
        empty: filtered ? t('assets.ipHosts.nothingMatches') : t('assets.ipHosts.empty'),
        loadFailed: t('assets.ipHosts.loadFailed'),
      }}
      footerTestId="ip-hosts"
    />
  );
}
