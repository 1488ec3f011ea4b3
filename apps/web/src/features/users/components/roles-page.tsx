import { Button, Group, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role as RoleWire } from '@vigil/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { CompanySelect, FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import {
  companyColumn,
  dateColumn,
  deleteColumn,
  ListPage,
  presentColumns,
  stackCell,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { notify } from '../../../lib/notifications';
import { Can, usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { useRoleCatalog } from '../api/lookups';
import { createRole, deleteRole, rolesList, updateRole, userKeys, type Role } from '../api/users';
import { fromPermissionMap, PermissionGrid, toPermissionMap } from './permission-grid';
import { UsersTabs } from './users-tabs';

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
  return (
    <FormFrame onSubmit={() => save.mutate()} testId="role-form">
      <Group grow align="flex-start">
        <TextInput
          label={t('roles.name')}
          required
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={fieldError(save.error, 'name')}
        />
        {!role && (
          <CompanySelect value={companyId} onChange={setCompanyId} error={fieldError(save.error, 'companyId')} />
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
      <FormActions
        onCancel={onClose}
        submitLabel={role ? t('common.save') : t('roles.create')}
        loading={save.isPending}
        submitTestId="role-form-submit"
        className="vigil-drawer-footer"
      />
    </FormFrame>
  );
}

/** Settings → Users → Roles: the permission bundles users are given. */
export default function RolesPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const model = usePagedListPage<RoleWire, typeof rolesList.filters>(rolesList);
  const [editing, setEditing] = useState<Role | null | undefined>(undefined);
  const mayChange = usePermission({ action: 'change', subject: 'users' });
  const mayDelete = usePermission({ action: 'delete', subject: 'users' });
  const removal = useRowDelete<Role>({
    remove: deleteRole,
    invalidate: [userKeys.all],
    title: t('roles.delete'),
    question: (role) => t('roles.deleteConfirm', { name: role.name, count: role.userCount }),
    deleted: (role) => t('roles.deleted', { name: role.name }),
  });
  const ask = removal.ask;

  const filters: FilterField<typeof rolesList.filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('roles.searchPlaceholder') },
    { kind: 'company', name: 'companyId', label: t('users.company') },
  ];
  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(
    () =>
      presentColumns<Role>([
        {
          id: 'name',
          header: t('roles.name'),
          width: 'minmax(220px, 2fr)',
          sortField: 'name',
          render: (role) => stackCell(role.name, role.description, 'vigil-cell-strong'),
        },
        companyColumn(t('users.company'), me.companies),
        {
          id: 'permissions',
          header: t('roles.permissions'),
          width: 'minmax(200px, 1fr)',
          render: (role) => (
            <span className="vigil-pill vigil-pill--outline">
              {t('roles.grants', {
                resources: role.permissions.length,
                actions: role.permissions.reduce((sum, entry) => sum + entry.actions.length, 0),
              })}
            </span>
          ),
        },
        { id: 'users', header: t('roles.users'), width: '120px', render: (role) => role.userCount },
        dateColumn('createdAt', t('roles.createdAt'), (role) => role.createdAt, {
          sortField: 'created_at',
          format: 'isoDate',
        }),
        deleteColumn({ header: t('common.actions'), delete: t('common.delete') }, mayDelete, ask),
      ]),
    [t, me.companies, mayDelete, ask],
  );

  return (
    <ListPage
      model={model}
      title={t('users.title')}
      subtitle={t('roles.subtitle')}
      actions={
        <Can I="add" a="users">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="role-create">
            {t('roles.create')}
          </Button>
        </Can>
      }
      above={<UsersTabs active="roles" />}
      filters={filters}
      table={{
        columns,
        label: t('users.tabRoles'),
        testId: 'roles-table',
        rowTestId: 'role-row',
        rowHeight: 52,
        onRowClick: (role) => mayChange && setEditing(role),
        empty: t('roles.empty'),
        loadFailed: t('roles.loadFailed'),
      }}
      footerTestId="roles"
    >
      <SideDrawer
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        size={880}
        title={editing ? t('roles.editTitle', { name: editing.name }) : t('roles.newTitle')}
      >
        {editing !== undefined && (
          <RoleForm key={editing?.id ?? 'new'} role={editing} onClose={() => setEditing(undefined)} />
        )}
      </SideDrawer>
      {removal.dialog}
    </ListPage>
  );
}
