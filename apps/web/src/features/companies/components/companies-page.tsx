import { Button, Tabs } from '@mantine/core';
import { IconBuilding, IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Company as CompanyWire } from '@vigil/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { SideDrawer } from '../../../components/ui/side-drawer';
import {
  actionsColumn,
  cellAction,
  dateColumn,
  ListPage,
  noValue,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { companyKeys, companyList, fetchOwnUser, type Company } from '../api/companies';
import { CompanyForm } from './company-form';
import { SsoSettingsPanel } from './sso-settings-form';

/** Whether the signed-in user may add companies: provider staff who see all of them (the server decides too). */
function useMayAddCompanies(): boolean {
  const me = useSignedInUser();
  const mayAdd = usePermission({ action: 'add', subject: 'companies' });
  const mayReadUsers = usePermission({ action: 'view', subject: 'users' });
  const own = useQuery({
    queryKey: companyKeys.me(me.id),
    queryFn: ({ signal }) => fetchOwnUser(me.id, signal),
    enabled: mayAdd && !me.isSuperuser && mayReadUsers,
    staleTime: 60_000,
  });
  return mayAdd && (me.isSuperuser || own.data?.allCompanies === true);
}

/** Settings → Companies: the provider and its customers; names, labels, activity and single sign-on. */
export default function CompaniesPage() {
  const { t } = useTranslation();
  const model = usePagedListPage<CompanyWire, typeof companyList.filters>(companyList);
  const mayAdd = useMayAddCompanies();
  const [editing, setEditing] = useState<Company | null | undefined>(undefined);
  const [tab, setTab] = useState<string | null>('details');
  const filtered = Object.keys(model.list.filters).length > 0;
  const open = (company: Company | null, at: 'details' | 'sso') => {
    setTab(at);
    setEditing(company);
  };

  const filters: FilterField<typeof companyList.filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('companies.searchPlaceholder') },
    {
      kind: 'choice',
      name: 'kind',
      label: t('companies.kind'),
      options: [
        { value: 'provider', label: t('companies.kinds.provider') },
        { value: 'customer', label: t('companies.kinds.customer') },
      ],
    },
    {
      kind: 'segmented',
      name: 'isActive',
      label: t('companies.state'),
      options: [
        { value: undefined, label: t('companies.all') },
        { value: true, label: t('companies.active') },
        { value: false, label: t('companies.inactive') },
      ],
    },
  ];
  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<Company>[]>(() => {
    const kinds = { provider: t('companies.kinds.provider'), customer: t('companies.kinds.customer') };
    const active = t('companies.active');
    const inactive = t('companies.inactive');
    const ssoLabel = t('companies.sso.short');
    return [
      {
        id: 'name',
        header: t('companies.name'),
        width: 'minmax(200px, 1fr)',
        sortField: 'name',
        render: (company) =>
          stackCell(
            company.name,
            company.labelName && t('companies.labelShown', { label: `${company.labelName} Managed XDR` }),
            'vigil-cell-strong',
          ),
      },
      {
        id: 'kind',
        header: t('companies.kind'),
        width: '120px',
        sortField: 'kind',
        render: (company) => (
          <span className={`vigil-pill vigil-pill--${company.kind === 'provider' ? 'purple' : 'blue'}`}>
            {kinds[company.kind]}
          </span>
        ),
      },
      {
        id: 'description',
        header: t('companies.description'),
        width: 'minmax(200px, 1fr)',
        render: (company) => company.description || noValue,
      },
      {
        id: 'state',
        header: t('companies.state'),
        width: '110px',
        render: (company) => (
          <span className={`vigil-pill vigil-pill--${company.isActive ? 'green' : 'grey'}`}>
            {company.isActive ? active : inactive}
          </span>
        ),
      },
      dateColumn('createdAt', t('companies.createdAt'), (company: Company) => company.createdAt, {
        sortField: 'created_at',
        format: 'isoDate',
      }),
      actionsColumn(
        t('common.actions'),
        (company: Company) =>
          cellAction({ label: ssoLabel, icon: <IconKey size={14} />, onClick: () => open(company, 'sso') }),
        '90px',
      ),
    ];
  }, [t]);

  return (
    <ListPage
      model={model}
      title={t('companies.title')}
      subtitle={t('companies.subtitle')}
      actions={
        mayAdd && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => open(null, 'details')}
            data-testid="company-create"
          >
            {t('companies.create')}
          </Button>
        )
      }
      filters={filters}
      table={{
        columns,
        label: t('companies.title'),
        testId: 'companies-table',
        rowTestId: 'company-row',
        rowHeight: 52,
        onRowClick: (company) => open(company, 'details'),
        empty: filtered ? t('companies.nothingMatches') : t('companies.empty'),
        loadFailed: t('companies.loadFailed'),
      }}
      footerTestId="companies"
    >
      <SideDrawer
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        size={680}
        title={editing ? editing.name : t('companies.newTitle')}
      >
        {editing === null && <CompanyForm company={null} onClose={() => setEditing(undefined)} />}
        {editing && (
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="details" leftSection={<IconBuilding size={16} />}>
                {t('companies.details')}
              </Tabs.Tab>
              <Tabs.Tab value="sso" leftSection={<IconKey size={16} />} data-testid="company-sso-tab">
                {t('companies.sso.title')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="details">
              <CompanyForm key={editing.id} company={editing} onClose={() => setEditing(undefined)} />
            </Tabs.Panel>
            <Tabs.Panel value="sso">
              <SsoSettingsPanel company={editing} />
            </Tabs.Panel>
          </Tabs>
        )}
      </SideDrawer>
    </ListPage>
  );
}
