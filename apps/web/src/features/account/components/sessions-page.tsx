import './sessions.css';
import { Button } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserSession } from '@vigil/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { actionsColumn, cellAction, dateColumn, ListPage, usePagedListPage } from '../../../components/list-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser } from '../../../lib/session';
import { endOtherSessions, endSession, sessionList, type Session } from '../api/account';
import { readableAgent } from '../api/user-agent';

/** My sessions: where the user is signed in, and a way to end any of them but this one. */
export default function SessionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const model = usePagedListPage<UserSession, typeof sessionList.filters>(sessionList);
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
  const others = (model.count ?? 0) - (model.rows.some((session) => session.current) ? 1 : 0);

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<Session>[]>(() => {
    const unknownDevice = t('sessions.unknownDevice');
    const thisSession = t('sessions.thisSession');
    const endLabel = t('sessions.end');
    const deviceName = (session: Session) => {
      const agent = readableAgent(session.userAgent);
      return {
        mobile: agent.mobile,
        title:
          agent.browser && agent.os
            ? t('sessions.browserOn', { browser: agent.browser, os: agent.os })
            : (agent.browser ?? agent.os ?? unknownDevice),
      };
    };
    return [
      {
        id: 'device',
        header: t('sessions.device'),
        width: 'minmax(280px, 2fr)',
        render: (session) => {
          const device = deviceName(session);
          const Icon = device.mobile ? IconDeviceMobile : IconDeviceDesktop;
          return (
            <span className="vigil-session-device" data-current={session.current || undefined}>
              <span className="vigil-session-device__icon">
                <Icon size={18} />
              </span>
              <span className="vigil-cell-stack">
                <span>
                  <span className="vigil-cell-strong">{device.title}</span>
                  {session.current && (
                    <span
                      className="vigil-pill vigil-pill--green vigil-session-device__this"
                      data-testid="this-session"
                    >
                      {thisSession}
                    </span>
                  )}
                </span>
                <span className="vigil-cell-dim" title={session.userAgent || unknownDevice}>
                  {session.userAgent || '—'}
                </span>
              </span>
            </span>
          );
        },
      },
      {
        id: 'ip',
        header: t('sessions.ip'),
        width: '150px',
        render: (session) => <span className="vigil-cell-mono">{session.ip ?? 'n/a'}</span>,
      },
      dateColumn('created', t('sessions.created'), (session: Session) => session.createdAt, {
        sortField: 'created_at',
      }),
      dateColumn('lastSeen', t('sessions.lastSeen'), (session: Session) => session.lastSeenAt, {
        sortField: 'last_seen_at',
        width: '190px',
      }),
      actionsColumn(t('common.actions'), (session: Session) =>
        session.current
          ? null
          : cellAction({ label: endLabel, danger: true, onClick: () => setEnding(session), testId: 'end-session' }),
      ),
    ];
  }, [t]);

  return (
    <ListPage
      model={model}
      title={t('sessions.title')}
      subtitle={t('sessions.subtitle')}
      actions={
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} />}
          disabled={!model.page || others <= 0}
          onClick={() => setEnding('others')}
          data-testid="end-other-sessions"
        >
          {t('sessions.endOthers')}
        </Button>
      }
      table={{
        columns,
        label: t('sessions.title'),
        testId: 'sessions-table',
        rowTestId: 'session-row',
        rowHeight: 56,
        empty: t('sessions.empty'),
        loadFailed: t('sessions.loadFailed'),
      }}
      footerTestId="sessions"
    >
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
    </ListPage>
  );
}
