import {
  Button,
  Checkbox,
  Group,
  Input,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArchive, IconFilterOff, IconPlus, IconRestore, IconSearch } from '@tabler/icons-react';
import type { User as UserWire } from '@vigil/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter, LoadError, SortHeader, useSearchBox } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { useList, useListState } from '../../../lib/list';
import { Can, usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { useRoles, useUnits } from '../api/lookups';
import { userList, type User } from '../api/users';
import { useUserActionDialog, useUserActionRights } from './user-actions';
import { UserRow } from './user-row';
import { UserFormDrawer } from './user-form';
import { USERS_PATH, UsersTabs } from './users-tabs';

const COLUMNS = 8;

const booleanOptions = (yes: string, no: string, any: string) => [
  { value: '', label: any },
  { value: 'true', label: yes },
  { value: 'false', label: no },
];
const toBoolean = (value: string | null) => (value === 'true' ? true : value === 'false' ? false : undefined);
const fromBoolean = (value: boolean | undefined) => (value === undefined ? '' : String(value));

/** Settings → Users: search, filters, ordering and page in the URL; create, edit, archive and restore. */
export default function UsersPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const list = useListState(userList);
  const { data, error, fetching, fetch } = useList<UserWire, typeof userList.filters>(userList, list);
  const search = useSearchBox(list.filters.search, (value) => list.setFilters({ search: value }));
  const { roles, byId: rolesById } = useRoles();
  const units = useUnits();
  const rights = useUserActionRights();
  const [selected, setSelected] = useState<Map<number, User>>(new Map());
  const [editing, setEditing] = useState<User | null | undefined>(undefined);
  const actions = useUserActionDialog((action) => {
    if (action === 'archive' || action === 'restore') setSelected(new Map());
  });
  const mayArchive = usePermission({ action: 'delete', subject: 'users' });
  const mayRestore = usePermission({ action: 'restore', subject: 'users' });
  const archived = list.filters.archived === true;
  const filtered = Object.keys(list.filters).some((key) => key !== 'archived');
  const manyCompanies = me.companies.length > 1;

  // A selection belongs to the rows on screen: a new page, filter or ordering starts afresh.
  const results = data?.results;
  useEffect(() => setSelected(new Map()), [list.page, list.pageSize, list.ordering, JSON.stringify(list.filters)]);

  const selectable = (results ?? []).filter((user) => {
    const r = rights(user);
    return archived ? r.restore : r.archive;
  });
  const allSelected = selectable.length > 0 && selectable.every((user) => selected.has(user.id));
  const toggle = useCallback(
    (user: User, on: boolean) =>
      setSelected((previous) => {
        const next = new Map(previous);
        if (on) next.set(user.id, user);
        else next.delete(user.id);
        return next;
      }),
    [],
  );
  // Role names per user, kept equal between renders while the roles do not change (rows are memoised).
  const roleNames = useMemo(() => new Map<string, string[]>(), [rolesById]);
  const roleNamesOf = (user: User) => {
    const key = user.roleIds.join(',');
    let names = roleNames.get(key);
    if (!names) {
      names = user.roleIds.map((id) => rolesById.get(id)?.name ?? `#${id}`);
      roleNames.set(key, names);
    }
    return names;
  };

  return (
    <Stack gap="lg" className="vigil-list-page">
      <PageHeader
        title={t('users.title')}
        subtitle={t('users.subtitle')}
        actions={
          <Can I="add" a="users">
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="user-create">
              {t('users.create')}
            </Button>
          </Can>
        }
      />
      <UsersTabs active="users" />

      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('users.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
          />
          {manyCompanies && (
            <MultiSelect<number>
              className="vigil-filters__tags"
              label={t('users.company')}
              placeholder={list.filters.companyId?.length ? undefined : t('common.any')}
              data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
              value={list.filters.companyId ?? []}
              onChange={(value) => list.setFilters({ companyId: value })}
              searchable
              clearable
              data-testid="filter-company"
            />
          )}
          {units.allowed && (
            <MultiSelect<number>
              className="vigil-filters__tags"
              label={t('users.unit')}
              placeholder={list.filters.unitId?.length ? undefined : t('common.any')}
              data={units.units.map((unit) => ({ value: unit.id, label: unit.name }))}
              value={list.filters.unitId ?? []}
              onChange={(value) => list.setFilters({ unitId: value })}
              searchable
              clearable
            />
          )}
          <MultiSelect<number>
            className="vigil-filters__tags"
            label={t('users.role')}
            placeholder={list.filters.roleId?.length ? undefined : t('common.any')}
            data={roles.map((role) => ({ value: role.id, label: role.name }))}
            value={list.filters.roleId ?? []}
            onChange={(value) => list.setFilters({ roleId: value })}
            searchable
            clearable
            data-testid="filter-role"
          />
          <Select
            className="vigil-filters__narrow"
            label={t('users.twoFactor')}
            data={booleanOptions(t('users.on'), t('users.off'), t('users.twoFactorAny'))}
            value={fromBoolean(list.filters.twoFactorEnabled)}
            onChange={(value) => list.setFilters({ twoFactorEnabled: toBoolean(value) })}
            allowDeselect={false}
            data-testid="filter-two-factor"
          />
          <Input.Wrapper label={t('users.state')}>
            <SegmentedControl
              value={archived ? 'archived' : 'active'}
              onChange={(value) => list.setFilters({ archived: value === 'archived' ? true : undefined })}
              data={[
                { value: 'active', label: t('users.active') },
                { value: 'archived', label: t('users.archived') },
              ]}
              data-testid="filter-archived"
            />
          </Input.Wrapper>
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              search.clear();
              list.setFilters({
                search: undefined,
                companyId: undefined,
                unitId: undefined,
                roleId: undefined,
                twoFactorEnabled: undefined,
                isSuperuser: undefined,
              });
            }}
          >
            {t('common.resetFilters')}
          </Button>
        </Group>
      </Paper>

      {error && <LoadError message={t('users.loadFailed')} onRetry={() => void fetch()} />}

      {selected.size > 0 && (
        <Paper p="sm" className="vigil-bulk-bar" data-testid="bulk-bar">
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {t('users.selected', { count: selected.size })}
            </Text>
            <Group gap="sm">
              <Button variant="subtle" size="xs" onClick={() => setSelected(new Map())}>
                {t('users.clearSelection')}
              </Button>
              {!archived && mayArchive && (
                <Button
                  size="xs"
                  color="red"
                  leftSection={<IconArchive size={14} />}
                  onClick={() => actions.request('archive', [...selected.values()])}
                  data-testid="bulk-archive"
                >
                  {t('users.actions.archive')}
                </Button>
              )}
              {archived && mayRestore && (
                <Button
                  size="xs"
                  leftSection={<IconRestore size={14} />}
                  onClick={() => actions.request('restore', [...selected.values()])}
                  data-testid="bulk-restore"
                >
                  {t('users.actions.restore')}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      )}

      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={980}>
          <Table
            className="vigil-table"
            data-testid="users-table"
            data-loading={fetching}
            highlightOnHover
            verticalSpacing="sm"
            horizontalSpacing="md"
            stickyHeader
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th className="vigil-table__check">
                  <Checkbox
                    size="xs"
                    aria-label={t('users.selectAll')}
                    checked={allSelected}
                    indeterminate={!allSelected && selected.size > 0}
                    disabled={selectable.length === 0}
                    onChange={(event) => {
                      const on = event.currentTarget.checked;
                      setSelected(on ? new Map(selectable.map((user) => [user.id, user])) : new Map());
                    }}
                  />
                </Table.Th>
                <SortHeader
                  field="username"
                  label={t('users.user')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="email"
                  label={t('users.email')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="company"
                  label={t('users.company')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th>{t('users.roles')}</Table.Th>
                <Table.Th>{t('users.status')}</Table.Th>
                <SortHeader
                  field="last_login_at"
                  label={t('users.lastLogin')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th className="vigil-table__actions" aria-label={t('common.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results?.map((user) => {
                const r = rights(user);
                return (
                  <UserRow
                    key={user.id}
                    user={user}
                    path={`${USERS_PATH}/${user.id}`}
                    rights={r}
                    selected={selected.has(user.id)}
                    selectable={archived ? r.restore : r.archive}
                    roleNames={roleNamesOf(user)}
                    onToggle={toggle}
                    onEdit={setEditing}
                    request={actions.request}
                  />
                );
              })}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {filtered ? t('users.nothingMatches') : archived ? t('users.noArchived') : t('users.empty')}
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
        <ListFooter data={data} list={list} pageSizes={userList.pageSizes} testId="users" />
      </Paper>
      <UserFormDrawer opened={editing !== undefined} user={editing ?? null} onClose={() => setEditing(undefined)} />
      {actions.dialog}
    </Stack>
  );
}
