import { Badge, Button, Group, Paper, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter, LoadError, SortHeader } from '../../../components/list';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useList, useListState } from '../../../lib/list';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser } from '../../../lib/session';
import type { UserSession } from '@vigil/contract';
import { endOtherSessions, endSession, sessionList, type Session } from '../api/account';
import { readableAgent } from '../api/user-agent';

const COLUMNS = 5;

function Device({ session }: { session: Session }) {
  const { t } = useTranslation();
  const agent = readableAgent(session.userAgent);
  const Icon = agent.mobile ? IconDeviceMobile : IconDeviceDesktop;
  const title =
    agent.browser && agent.os
      ? t('sessions.browserOn', { browser: agent.browser, os: agent.os })
      : (agent.browser ?? agent.os ?? t('sessions.unknownDevice'));
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon variant="light" color={session.current ? 'teal' : 'gray'} size="lg" radius="md">
        <Icon size={18} />
      </ThemeIcon>
      <div className="vigil-cell-text">
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {title}
          </Text>
          {session.current && (
            <Badge size="xs" color="teal" variant="light" data-testid="this-session">
              {t('sessions.thisSession')}
            </Badge>
          )}
        </Group>
        <Tooltip label={session.userAgent || t('sessions.unknownDevice')} multiline maw={420} withArrow openDelay={400}>
          <Text size="xs" c="dimmed" truncate="end" maw={320}>
            {session.userAgent || '—'}
          </Text>
        </Tooltip>
      </div>
    </Group>
  );
}

/** My sessions: where the user is signed in, and a way to end any of them but this one. */
export default function SessionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useListState(sessionList);
  const { data, error, fetching, fetch } = useList<UserSession, typeof sessionList.filters>(sessionList, list);
  const [ending, setEnding] = useState<Session | 'others' | null>(null);
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: [sessionList.basename] });
    await refreshCurrentUser();
  };
  const endOne = useMutation({
    mutationFn: (id: string) => endSession(id),
    onSuccess: async () => {
      setEnding(null);
      notify({ type: 'success', message: t('sessions.ended', { count: 1 }) });
      await reload();
    },
  });
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: async ({ ended }) => {
      setEnding(null);
      notify({ type: 'success', message: t('sessions.ended', { count: ended }) });
      await reload();
    },
  });
  const others = (data?.count ?? 0) - (data?.results.some((session) => session.current) ? 1 : 0);

  return (
    <Stack gap="lg" className="vigil-list-page">
      <PageHeader
        title={t('sessions.title')}
        subtitle={t('sessions.subtitle')}
        actions={
          <Button
            variant="light"
            color="red"
            leftSection={<IconLogout size={16} />}
            disabled={!data || others <= 0}
            onClick={() => setEnding('others')}
            data-testid="end-other-sessions"
          >
            {t('sessions.endOthers')}
          </Button>
        }
      />
      {error && <LoadError message={t('sessions.loadFailed')} onRetry={() => void fetch()} />}
      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={760}>
          <Table
            className="vigil-table"
            data-testid="sessions-table"
            data-loading={fetching}
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('sessions.device')}</Table.Th>
                <Table.Th>{t('sessions.ip')}</Table.Th>
                <SortHeader
                  field="created_at"
                  label={t('sessions.created')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="last_seen_at"
                  label={t('sessions.lastSeen')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th className="vigil-table__actions" aria-label={t('common.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.map((session) => (
                <Table.Tr key={session.id} data-current={session.current} data-testid="session-row">
                  <Table.Td>
                    <Device session={session} />
                  </Table.Td>
                  <Table.Td className="vigil-table__mono">{session.ip ?? 'n/a'}</Table.Td>
                  <Table.Td className="vigil-table__mono">{formatDate(session.createdAt, 'isoDateTime')}</Table.Td>
                  <Table.Td className="vigil-table__mono">{formatDate(session.lastSeenAt, 'isoDateTime')}</Table.Td>
                  <Table.Td className="vigil-table__actions">
                    {!session.current && (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setEnding(session)}
                        data-testid="end-session"
                      >
                        {t('sessions.end')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {t('sessions.empty')}
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
        <ListFooter data={data} list={list} pageSizes={sessionList.pageSizes} testId="sessions" />
      </Paper>
      <ConfirmModal
        opened={ending !== null}
        title={ending === 'others' ? t('sessions.endOthers') : t('sessions.endOne')}
        message={ending === 'others' ? t('sessions.endOthersConfirm') : t('sessions.endOneConfirm')}
        confirmLabel={ending === 'others' ? t('sessions.endOthers') : t('sessions.end')}
        danger
        loading={endOne.isPending || endOthers.isPending}
        onConfirm={() => {
          if (ending === 'others') endOthers.mutate();
          else if (ending) endOne.mutate(ending.id);
        }}
        onClose={() => setEnding(null)}
      />
    </Stack>
  );
}
