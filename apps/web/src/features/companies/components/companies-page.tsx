import {
  Badge,
  Button,
  Drawer,
  Group,
  Input,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconBuilding, IconFilterOff, IconKey, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Company as CompanyWire } from '@vigil/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter, LoadError, SortHeader, useSearchBox } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useList, useListState } from '../../../lib/list';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { companyKeys, companyList, fetchOwnUser, type Company } from '../api/companies';
import { CompanyForm } from './company-form';
import { SsoSettingsPanel } from './sso-settings-form';

const COLUMNS = 6;

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
  const list = useListState(companyList);
  const { data, error, fetching, fetch } = useList<CompanyWire, typeof companyList.filters>(companyList, list);
  const search = useSearchBox(list.filters.search, (value) => list.setFilters({ search: value }));
  const mayAdd = useMayAddCompanies();
  const [editing, setEditing] = useState<Company | null | undefined>(undefined);
  const [tab, setTab] = useState<string | null>('details');
  const filtered = Object.keys(list.filters).length > 0;
  const activity = list.filters.isActive === undefined ? 'all' : list.filters.isActive ? 'active' : 'inactive';

  return (
    <Stack gap="lg" className="vigil-list-page">
      <PageHeader
        title={t('companies.title')}
        subtitle={t('companies.subtitle')}
        actions={
          mayAdd && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => {
                setTab('details');
                setEditing(null);
              }}
              data-testid="company-create"
            >
              {t('companies.create')}
            </Button>
          )
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('companies.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
          />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('companies.kind')}
            placeholder={list.filters.kind?.length ? undefined : t('common.any')}
            data={[
              { value: 'provider', label: t('companies.kinds.provider') },
              { value: 'customer', label: t('companies.kinds.customer') },
            ]}
            value={list.filters.kind ?? []}
            onChange={(value) => list.setFilters({ kind: value })}
            clearable
          />
          <Input.Wrapper label={t('companies.state')}>
            <SegmentedControl
              value={activity}
              onChange={(value) => list.setFilters({ isActive: value === 'all' ? undefined : value === 'active' })}
              data={[
                { value: 'all', label: t('companies.all') },
                { value: 'active', label: t('companies.active') },
                { value: 'inactive', label: t('companies.inactive') },
              ]}
            />
          </Input.Wrapper>
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              search.clear();
              list.resetFilters();
            }}
          >
            {t('common.resetFilters')}
          </Button>
        </Group>
      </Paper>
      {error && <LoadError message={t('companies.loadFailed')} onRetry={() => void fetch()} />}
      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={820}>
          <Table
            className="vigil-table"
            data-testid="companies-table"
            data-loading={fetching}
            highlightOnHover
            verticalSpacing="sm"
            horizontalSpacing="md"
            stickyHeader
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader
                  field="name"
                  label={t('companies.name')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="kind"
                  label={t('companies.kind')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th>{t('companies.description')}</Table.Th>
                <Table.Th>{t('companies.state')}</Table.Th>
                <SortHeader
                  field="created_at"
                  label={t('companies.createdAt')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th className="vigil-table__actions" aria-label={t('common.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.map((company) => (
                <Table.Tr
                  key={company.id}
                  className="vigil-table__row"
                  onClick={() => {
                    setTab('details');
                    setEditing(company);
                  }}
                  data-testid="company-row"
                >
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {company.name}
                    </Text>
                    {company.labelName && (
                      <Text size="xs" c="dimmed">
                        {t('companies.labelShown', { label: `${company.labelName} Managed XDR` })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={company.kind === 'provider' ? 'brand' : 'vigil'}
                      radius="sm"
                      tt="none"
                    >
                      {t(`companies.kinds.${company.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={company.description ? undefined : 'dimmed'} lineClamp={1} maw={380}>
                      {company.description || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={company.isActive ? 'teal' : 'gray'} tt="none">
                      {company.isActive ? t('companies.active') : t('companies.inactive')}
                    </Badge>
                  </Table.Td>
                  <Table.Td className="vigil-table__mono">{formatDate(company.createdAt, 'isoDate')}</Table.Td>
                  <Table.Td className="vigil-table__actions" onClick={(event) => event.stopPropagation()}>
                    <Button
                      size="xs"
                      variant="subtle"
                      leftSection={<IconKey size={14} />}
                      onClick={() => {
                        setTab('sso');
                        setEditing(company);
                      }}
                    >
                      {t('companies.sso.short')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {filtered ? t('companies.nothingMatches') : t('companies.empty')}
                  </Table.Td>
                </Table.Tr>
              )}
              {!data && !error && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {t('common.loading')}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ListFooter data={data} list={list} pageSizes={companyList.pageSizes} testId="companies" />
      </Paper>
      <Drawer
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        position="right"
        size={680}
        title={
          <Text fw={700} size="lg">
            {editing ? editing.name : t('companies.newTitle')}
          </Text>
        }
        closeButtonProps={{ 'aria-label': t('common.close') }}
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
      </Drawer>
    </Stack>
  );
}
