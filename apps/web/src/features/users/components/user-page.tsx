import {
  Anchor,
  Avatar,
  Badge,
  Breadcrumbs,
  Button,
  Grid,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconEdit, IconUserShield } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { formatDate } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { useFetchState } from '../../../lib/fetch-state';
import { useSignedInUser } from '../../../lib/session';
import { useRoles, useUnits } from '../api/lookups';
import { fetchUser, userKeys, type User } from '../api/users';
import { PrivilegedSettings } from './privileged-settings';
import { UserActionsMenu, useUserActionDialog, useUserActionRights } from './user-actions';
import { UserBadges } from './user-badges';
import { UserFormDrawer } from './user-form';
import { UserTimeline } from './user-timeline';
import { USERS_PATH } from './users-tabs';
import { useRouteId } from '../../../lib/route-id';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="vigil-field-view">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} className="vigil-field-view__label">
        {label}
      </Text>
      <div className="vigil-field-view__value">{children}</div>
    </div>
  );
}

const none = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

function Details({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const { byId: roles } = useRoles();
  const units = useUnits();
  const companyName = (id: number) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.email')}>{user.email ?? none}</Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.phone')}>{user.phone || none}</Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.company')}>{user.companyName}</Field>
      </Grid.Col>
      {units.allowed && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Field label={t('users.unit')}>
            {user.unitId === null ? none : (units.byId.get(user.unitId)?.name ?? `#${user.unitId}`)}
          </Field>
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.roles')}>
          {user.roleIds.length === 0 ? (
            none
          ) : (
            <Group gap={4}>
              {user.roleIds.map((id) => (
                <Badge key={id} variant="default" radius="sm" tt="none">
                  {roles.get(id)?.name ?? `#${id}`}
                </Badge>
              ))}
            </Group>
          )}
        </Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.extraCompanies')}>
          {user.allCompanies ? (
            <Badge variant="light" radius="sm">
              {t('users.allCompaniesShort')}
            </Badge>
          ) : user.extraCompanyIds.length === 0 ? (
            none
          ) : (
            user.extraCompanyIds.map(companyName).join(', ')
          )}
        </Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.ipWhitelist')}>
          {user.ipWhitelist.length === 0 ? (
            <Text span size="sm" c="dimmed">
              {t('users.anyAddress')}
            </Text>
          ) : (
            <Text span size="sm" className="vigil-table__mono-inline">
              {user.ipWhitelist.join(', ')}
            </Text>
          )}
        </Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.lastLogin')}>{formatDate(user.lastLoginAt, 'isoDateTime')}</Field>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Field label={t('users.createdAt')}>{formatDate(user.createdAt, 'isoDateTime')}</Field>
      </Grid.Col>
      {user.archived && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Field label={t('users.archivedAt')}>{formatDate(user.archivedAt, 'isoDateTime')}</Field>
        </Grid.Col>
      )}
    </Grid>
  );
}

/** A user's own page: details, privileged settings, administrative actions, and its two timelines. */
export default function UserPage() {
  const { t } = useTranslation();
  const { id, valid } = useRouteId();
  const {
    data: user,
    error,
    fetch,
  } = useFetchState({
    queryKey: userKeys.detail(id),
    fetcher: (signal) => fetchUser(id, signal),
    enabled: valid,
    clearDataOnFetch: false,
  });
  const rightsOf = useUserActionRights();
  const [editing, setEditing] = useState(false);
  const actions = useUserActionDialog();

  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  const rights = user ? rightsOf(user) : null;

  return (
    <Stack gap="lg" className="vigil-settings-page">
      <Breadcrumbs>
        <Anchor component={Link} to={USERS_PATH} size="sm">
          {t('users.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {user?.username ?? '…'}
        </Text>
      </Breadcrumbs>
      {error && <LoadError message={t('users.loadOneFailed')} onRetry={() => void fetch()} />}
      {user && rights && (
        <>
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
            <Group gap="md" wrap="nowrap">
              <Avatar size={56} radius="xl" color={user.archived ? 'gray' : 'vigil'} variant="filled">
                {user.fullName.slice(0, 1).toUpperCase()}
              </Avatar>
              <div>
                <Title order={1} className="vigil-page__title" data-testid="user-name">
                  {user.fullName}
                </Title>
                <Group gap="xs">
                  <Text size="sm" c="dimmed" className="vigil-table__mono-inline">
                    {user.username}
                  </Text>
                  <UserBadges user={user} />
                </Group>
              </div>
            </Group>
            <Group gap="sm">
              {rights.impersonate && (
                <Button
                  variant="default"
                  leftSection={<IconUserShield size={16} />}
                  onClick={() => actions.request('impersonate', [user])}
                  data-testid="impersonate"
                >
                  {t('users.actions.impersonate')}
                </Button>
              )}
              {rights.edit && (
                <Button leftSection={<IconEdit size={16} />} onClick={() => setEditing(true)} data-testid="user-edit">
                  {t('common.edit')}
                </Button>
              )}
              <UserActionsMenu
                user={user}
                rights={rights}
                onEdit={() => setEditing(true)}
                request={actions.request}
                withSso
              />
            </Group>
          </Group>

          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <Paper p="lg" h="100%">
                <Title order={3} className="vigil-section__title" mb="md">
                  {t('users.details')}
                </Title>
                <Details user={user} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper p="lg" h="100%">
                <Title order={3} className="vigil-section__title">
                  {t('users.privileged.title')}
                </Title>
                <Text size="sm" c="dimmed" mb="md">
                  {t('users.privileged.hint')}
                </Text>
                <PrivilegedSettings key={user.updatedAt} user={user} editable={rights.privileged} />
              </Paper>
            </Grid.Col>
          </Grid>

          <Paper p="lg">
            <Tabs defaultValue="timeline" keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="timeline">{t('users.timeline')}</Tabs.Tab>
                <Tabs.Tab value="userLogs" data-testid="user-logs-tab">
                  {t('users.userLogs')}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="timeline">
                <UserTimeline userId={user.id} kind="timeline" />
              </Tabs.Panel>
              <Tabs.Panel value="userLogs">
                <UserTimeline userId={user.id} kind="user_logs_timeline" />
              </Tabs.Panel>
            </Tabs>
          </Paper>
          <UserFormDrawer opened={editing} user={user} onClose={() => setEditing(false)} />
          {actions.dialog}
        </>
      )}
    </Stack>
  );
}
