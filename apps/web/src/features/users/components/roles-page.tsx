import {
  Badge,
  Button,
  Drawer,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role as RoleWire } from '@vigil/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, fieldError } from '../../../components/form';
import { ListFooter, LoadError, SortHeader, useSearchBox } from '../../../components/list';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useList, useListState } from '../../../lib/list';
import { notify } from '../../../lib/notifications';
import { Can, usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { useRoleCatalog } from '../api/lookups';
import { createRole, deleteRole, rolesList, updateRole, userKeys, type Role } from '../api/users';
import { fromPermissionMap, PermissionGrid, toPermissionMap } from './permission-grid';
import { UsersTabs } from './users-tabs';

const COLUMNS = 6;

function RoleForm({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const catalog = useRoleCatalog();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [companyId, setCompanyId] = useState<number>(role?.companyId ?? me.companyId);
  const [permissions, setPermissions] = useState(() => toPermissionMap(role?.permissions ?? []));
  const save = useMutation({
    mutationFn: () => {
      const body = { name, description, permissions: fromPermissionMap(permissions, catalog.data ?? []) };
      return role ? updateRole(role.id, body) : createRole({ ...body, companyId });
    },
    onSuccess: async () => {
      notify({ type: 'success', message: role ? t('roles.saved') : t('roles.created', { name }) });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate data-testid="role-form">
      <Stack gap="md">
        <Group grow align="flex-start">
          <TextInput
            label={t('roles.name')}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={fieldError(save.error, 'name')}
          />
          {!role && me.companies.length > 1 && (
            <Select<number>
              label={t('users.company')}
              data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
              value={companyId}
              onChange={(value) => value !== null && setCompanyId(value)}
              searchable
              allowDeselect={false}
              error={fieldError(save.error, 'companyId')}
            />
          )}
        </Group>
        <Textarea
          label={t('roles.description')}
          maxLength={2000}
          autosize
          minRows={2}
          maxRows={5}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          error={fieldError(save.error, 'description')}
        />
        <div>
          <Text size="sm" fw={600} mb={4}>
            {t('roles.permissions')}
          </Text>
          <Text size="xs" c="dimmed" mb="sm">
            {t('roles.permissionsHint')}
          </Text>
          {catalog.data ? (
            <PermissionGrid catalog={catalog.data} value={permissions} onChange={setPermissions} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('common.loading')}
            </Text>
          )}
        </div>
        <FormError error={save.error} shownFields={['name', 'description', 'companyId']} />
        <Group justify="flex-end" gap="sm" className="vigil-drawer-footer">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="role-form-submit">
            {role ? t('common.save') : t('roles.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings → Users → Roles: the permission bundles users are given. */
export default function RolesPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const list = useListState(rolesList);
  const { data, error, fetching, fetch } = useList<RoleWire, typeof rolesList.filters>(rolesList, list);
  const search = useSearchBox(list.filters.search, (value) => list.setFilters({ search: value }));
  const [editing, setEditing] = useState<Role | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const mayChange = usePermission({ action: 'change', subject: 'users' });
  const mayDelete = usePermission({ action: 'delete', subject: 'users' });
  const remove = useMutation({
    mutationFn: (id: number) => deleteRole(id),
    onSuccess: async () => {
      notify({ type: 'success', message: t('roles.deleted', { name: deleting?.name ?? '' }) });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const companyName = (id: number) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;
  const manyCompanies = me.companies.length > 1;

  return (
    <Stack gap="lg" className="vigil-list-page">
      <PageHeader
        title={t('users.title')}
        subtitle={t('roles.subtitle')}
        actions={
          <Can I="add" a="users">
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="role-create">
              {t('roles.create')}
            </Button>
          </Can>
        }
      />
      <UsersTabs active="roles" />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('roles.searchPlaceholder')}
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
            />
          )}
        </Group>
      </Paper>
      {error && <LoadError message={t('roles.loadFailed')} onRetry={() => void fetch()} />}
      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={760}>
          <Table
            className="vigil-table"
            data-testid="roles-table"
            data-loading={fetching}
            highlightOnHover
            verticalSpacing="sm"
            horizontalSpacing="md"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader
                  field="name"
                  label={t('roles.name')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                {manyCompanies && <Table.Th>{t('users.company')}</Table.Th>}
                <Table.Th>{t('roles.permissions')}</Table.Th>
                <Table.Th>{t('roles.users')}</Table.Th>
                <SortHeader
                  field="created_at"
                  label={t('roles.createdAt')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th className="vigil-table__actions" aria-label={t('common.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.map((role) => (
                <Table.Tr
                  key={role.id}
                  className={mayChange ? 'vigil-table__row' : undefined}
                  onClick={() => mayChange && setEditing(role)}
                  data-testid="role-row"
                >
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {role.name}
                    </Text>
                    {role.description && (
                      <Text size="xs" c="dimmed" lineClamp={1} maw={420}>
                        {role.description}
                      </Text>
                    )}
                  </Table.Td>
                  {manyCompanies && <Table.Td>{companyName(role.companyId)}</Table.Td>}
                  <Table.Td>
                    <Badge variant="default" radius="sm" tt="none">
                      {t('roles.grants', {
                        resources: role.permissions.length,
                        actions: role.permissions.reduce((sum, entry) => sum + entry.actions.length, 0),
                      })}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{role.userCount}</Table.Td>
                  <Table.Td className="vigil-table__mono">{formatDate(role.createdAt, 'isoDate')}</Table.Td>
                  <Table.Td className="vigil-table__actions" onClick={(event) => event.stopPropagation()}>
                    {mayDelete && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} />}
                        onClick={() => setDeleting(role)}
                      >
                        {t('common.delete')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {t('roles.empty')}
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
        <ListFooter data={data} list={list} pageSizes={rolesList.pageSizes} testId="roles" />
      </Paper>
      <Drawer
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        position="right"
        size={880}
        title={
          <Text fw={700} size="lg">
            {editing ? t('roles.editTitle', { name: editing.name }) : t('roles.newTitle')}
          </Text>
        }
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing !== undefined && (
          <RoleForm key={editing?.id ?? 'new'} role={editing} onClose={() => setEditing(undefined)} />
        )}
      </Drawer>
      <ConfirmModal
        opened={deleting !== null}
        title={t('roles.delete')}
        message={t('roles.deleteConfirm', { name: deleting?.name ?? '', count: deleting?.userCount ?? 0 })}
        confirmLabel={t('common.delete')}
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
