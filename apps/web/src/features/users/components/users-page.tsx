import { Button } from '@mantine/core';
import { IconArchive, IconPlus, IconRestore } from '@tabler/icons-react';
import type { User as UserWire } from '@vigil/contract';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import type { Column } from '../../../components/list';
import {
  actionsColumn,
  dateColumn,
  ListPage,
  noValue,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { Can, usePermission } from '../../../lib/permissions';
import { useRoles, useUnits } from '../api/lookups';
import { userList, type User } from '../api/users';
import { useUserActionDialog, useUserActionRights, UserActionsMenu } from './user-actions';
import { userBadgeLabels, userBadges } from './user-badges';
import { UserFormDrawer } from './user-form';
import { USERS_PATH, UsersTabs } from './users-tabs';

type Filters = typeof userList.filters;

const MAX_ROLES_SHOWN = 3;
const userPath = (user: User) => `${USERS_PATH}/${user.id}`;
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** Settings → Users: search, filters, ordering and page in the URL; create, edit, archive and restore. */
export default function UsersPage() {
  const { t } = useTranslation();
  const rightsOf = useUserActionRights();
  const mayArchive = usePermission({ action: 'delete', subject: 'users' });
  const mayRestore = usePermission({ action: 'restore', subject: 'users' });
  const canSelect = useCallback(
    (user: User) => {
      const rights = rightsOf(user);
      return user.archived ? rights.restore : rights.archive;
    },
    [rightsOf],
  );
  const model = usePagedListPage<UserWire, Filters>(userList, { selectable: true, canSelect });
  const { list, selection } = model;
  const { roles, byId: rolesById } = useRoles();
  const units = useUnits();
  const [editing, setEditing] = useState<User | null | undefined>(undefined);
  const actions = useUserActionDialog((action) => {
    if (action === 'archive' || action === 'restore') selection.clear();
  });
  const archived = list.filters.archived === true;
  const filtered = Object.keys(list.filters).some((key) => key !== 'archived');
  const selectedUsers = () => model.rows.filter((user) => selection.has(user.id) && canSelect(user));

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('users.searchPlaceholder') },
    { kind: 'company', name: 'companyId', label: t('users.company'), testId: 'filter-company' },
    ...(units.allowed
      ? [
          {
            kind: 'ids',
            name: 'unitId',
            label: t('users.unit'),
            options: units.units.map((unit) => ({ value: unit.id, label: unit.name })),
          } as const,
        ]
      : []),
    {
      kind: 'ids',
      name: 'roleId',
      label: t('users.role'),
      options: roles.map((role) => ({ value: role.id, label: role.name })),
      testId: 'filter-role',
    },
    {
      kind: 'yesNo',
      name: 'twoFactorEnabled',
      label: t('users.twoFactor'),
      yes: t('users.on'),
      no: t('users.off'),
      any: t('users.twoFactorAny'),
      testId: 'filter-two-factor',
    },
    {
      kind: 'segmented',
      name: 'archived',
      label: t('users.state'),
      options: [
        { value: undefined, label: t('users.active') },
        { value: true, label: t('users.archived') },
      ],
      testId: 'filter-archived',
    },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<User>[]>(() => {
    const badgeLabels = userBadgeLabels(t);
    const allCompanies = t('users.allCompaniesShort');
    return [
      {
        id: 'user',
        header: t('users.user'),
        width: 'minmax(170px, 1.4fr)',
        sortField: 'username',
        render: (user) =>
          stackCell(
            <Link to={userPath(user)} className="vigil-row__name" onClick={stop}>
              {user.fullName}
            </Link>,
            <span className="vigil-cell-mono">{user.username}</span>,
          ),
      },
      {
        id: 'email',
        header: t('users.email'),
        width: 'minmax(150px, 1fr)',
        sortField: 'email',
        render: (user) => user.email ?? noValue,
      },
      {
        id: 'company',
        header: t('users.company'),
        width: '130px',
        sortField: 'company',
        render: (user) => stackCell(user.companyName, user.allCompanies && allCompanies),
      },
      {
        id: 'roles',
        header: t('users.roles'),
        width: 'minmax(130px, 1fr)',
        render: (user) => (
          <span className="vigil-pills">
            {user.roleIds.slice(0, MAX_ROLES_SHOWN).map((id, index) => (
              <span key={`${id}-${index}`} className="vigil-pill vigil-pill--outline">
                {rolesById.get(id)?.name ?? `#${id}`}
              </span>
            ))}
            {user.roleIds.length > MAX_ROLES_SHOWN && (
              <span className="vigil-pill vigil-pill--outline">+{user.roleIds.length - MAX_ROLES_SHOWN}</span>
            )}
          </span>
        ),
      },
      {
        id: 'status',
        header: t('users.status'),
        width: '150px',
        render: (user) => userBadges(user, badgeLabels),
      },
      dateColumn('lastLogin', t('users.lastLogin'), (user: User) => user.lastLoginAt, {
        sortField: 'last_login_at',
        width: '140px',
      }),
      actionsColumn(
        t('common.actions'),
        (user: User) => (
          <UserActionsMenu user={user} rights={rightsOf(user)} onEdit={setEditing} request={actions.request} />
        ),
        '48px',
      ),
    ];
  }, [t, rolesById, rightsOf, actions.request]);
  // Stable, so the table keeps the labels it worked out for rows already seen.
  const rowLabel = useCallback((user: User) => t('users.select', { user: user.username }), [t]);

  return (
    <ListPage
      model={model}
      title={t('users.title')}
      subtitle={t('users.subtitle')}
      actions={
        <Can I="add" a="users">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="user-create">
            {t('users.create')}
          </Button>
        </Can>
      }
      above={<UsersTabs active="users" />}
      filters={filters}
      keepOnReset={['archived']}
      table={{
        columns,
        label: t('users.title'),
        testId: 'users-table',
        rowTestId: 'user-row',
        rowHeight: 52,
        rowLabel,
        rowHref: userPath,
        empty: filtered ? t('users.nothingMatches') : archived ? t('users.noArchived') : t('users.empty'),
        loadFailed: t('users.loadFailed'),
      }}
      selectAllMatching={false}
      bulkActions={
        <>
          {!archived && mayArchive && (
            <Button
              size="compact-sm"
              color="red"
              leftSection={<IconArchive size={14} />}
              onClick={() => actions.request('archive', selectedUsers())}
              data-testid="bulk-archive"
            >
              {t('users.actions.archive')}
            </Button>
          )}
          {archived && mayRestore && (
            <Button
              size="compact-sm"
              leftSection={<IconRestore size={14} />}
              onClick={() => actions.request('restore', selectedUsers())}
              data-testid="bulk-restore"
            >
              {t('users.actions.restore')}
            </Button>
          )}
        </>
      }
      footerTestId="users"
    >
      <UserFormDrawer opened={editing !== undefined} user={editing ?? null} onClose={() => setEditing(undefined)} />
      {actions.dialog}
    </ListPage>
  );
}
