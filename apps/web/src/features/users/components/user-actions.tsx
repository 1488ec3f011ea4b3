import { Menu } from '@mantine/core';
import {
  IconArchive,
  IconDots,
  IconEdit,
  IconKeyOff,
  IconLockOpen,
  IconRestore,
  IconShieldOff,
  IconUserShield,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { notify } from '../../../lib/notifications';
import { useAbility } from '../../../lib/permissions';
import { displayName, useSignedInUser } from '../../../lib/session';
import {
  archiveUsers,
  impersonate,
  resetSsoPassword,
  resetTwoFactor,
  restoreUsers,
  unlockUser,
  userKeys,
  type User,
} from '../api/users';

export type UserAction = 'archive' | 'restore' | 'resetTwoFactor' | 'resetSso' | 'unlock' | 'impersonate';

/** Which administrative actions the signed-in user may take on a user, as the server would allow. */
export type UserActionRights = ReturnType<ReturnType<typeof useUserActionRights>>;

export function useUserActionRights() {
  const ability = useAbility();
  const me = useSignedInUser();
  // One function while the signed-in user and its permissions stay: lists memoise on it.
  return useCallback(
    (user: User) => {
      // Superusers are only managed by superusers; the server refuses the rest anyway.
      const manageable = me.isSuperuser || !user.isSuperuser;
      const self = user.id === me.id;
      return {
        edit: manageable && ability.can('change', 'users'),
        archive: manageable && !self && !user.archived && ability.can('delete', 'users'),
        restore: manageable && user.archived && ability.can('restore', 'users'),
        resetTwoFactor: manageable && user.twoFactorEnabled && ability.can('reset_two_factor', 'users'),
        resetSso: manageable && !user.archived && ability.can('reset_sso_password', 'users'),
        unlock: manageable && user.locked && ability.can('change', 'users'),
        impersonate:
          manageable && !self && !user.archived && me.impersonator === null && ability.can('impersonate', 'users'),
        privileged: manageable && ability.can('change_privileged_settings', 'users'),
      };
    },
    [ability, me],
  );
}

const CONFIRM: Record<UserAction, { danger: boolean }> = {
  archive: { danger: true },
  restore: { danger: false },
  resetTwoFactor: { danger: true },
  resetSso: { danger: true },
  unlock: { danger: false },
  impersonate: { danger: false },
};

/**
 * The confirmation dialog of the user actions: `request(action, users)` asks, then does it and
 * refreshes every user query. Archive and restore take several users at once.
 */
export function useUserActionDialog(onDone?: (action: UserAction) => void): {
  request: (action: UserAction, users: User[]) => void;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<{ action: UserAction; users: User[] } | null>(null);
  const run = useMutation({
    mutationFn: async ({ action, users }: { action: UserAction; users: User[] }) => {
      const ids = users.map((user) => user.id);
      const first = ids[0]!;
      switch (action) {
        case 'archive':
          return archiveUsers(ids);
        case 'restore':
          return restoreUsers(ids);
        case 'resetTwoFactor':
          return resetTwoFactor(first);
        case 'resetSso':
          return resetSsoPassword(first);
        case 'unlock':
          return unlockUser(first);
        case 'impersonate':
          return impersonate(first);
      }
    },
    onSuccess: async (_answer, { action, users }) => {
      setPending(null);
      if (action === 'impersonate') {
        // The console starts again as the other user; the banner shows the way back.
        window.location.assign('/');
        return;
      }
      // Reset SSO password answers with its own message (shown by the HTTP client).
      if (action !== 'resetSso') {
        notify({ type: 'success', message: t(`users.actions.${action}Done`, { count: users.length }) });
      }
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onDone?.(action);
    },
  });
  const action = pending?.action;
  const users = pending?.users ?? [];
  const who = users.length === 1 ? displayName(users[0]!) : String(users.length);
  const dialog = (
    <ConfirmModal
      opened={pending !== null}
      title={action ? t(`users.actions.${action}`) : ''}
      message={action ? t(`users.actions.${action}Confirm`, { user: who, count: users.length }) : ''}
      confirmLabel={action ? t(`users.actions.${action}`) : ''}
      danger={action ? CONFIRM[action].danger : false}
      loading={run.isPending}
      onConfirm={() => pending && run.mutate(pending)}
      onClose={() => setPending(null)}
    />
  );
  const request = useCallback((next: UserAction, chosen: User[]) => setPending({ action: next, users: chosen }), []);
  return { request, dialog };
}

/** The "…" menu of one user: every action the signed-in user may take on it. */
export function UserActionsMenu({
  user,
  rights,
  onEdit,
  request,
  withSso = false,
}: {
  user: User;
  /** What the signed-in user may do to this one (computed once by the page, see `useUserActionRights`). */
  rights: UserActionRights;
  onEdit: (user: User) => void;
  request: (action: UserAction, users: User[]) => void;
  withSso?: boolean;
}) {
  const { t } = useTranslation();
  const [armed, setArmed] = useState(false);
  const [opened, setOpened] = useState(false);
  const items: ReactNode[] = [];
  if (rights.edit)
    items.push(
      <Menu.Item key="edit" leftSection={<IconEdit size={16} />} onClick={() => onEdit(user)}>
        {t('common.edit')}
      </Menu.Item>,
    );
  if (rights.impersonate)
    items.push(
      <Menu.Item
        key="impersonate"
        leftSection={<IconUserShield size={16} />}
        onClick={() => request('impersonate', [user])}
      >
        {t('users.actions.impersonate')}
      </Menu.Item>,
    );
  if (rights.unlock)
    items.push(
      <Menu.Item key="unlock" leftSection={<IconLockOpen size={16} />} onClick={() => request('unlock', [user])}>
        {t('users.actions.unlock')}
      </Menu.Item>,
    );
  if (rights.resetTwoFactor)
    items.push(
      <Menu.Item key="2fa" leftSection={<IconShieldOff size={16} />} onClick={() => request('resetTwoFactor', [user])}>
        {t('users.actions.resetTwoFactor')}
      </Menu.Item>,
    );
  if (withSso && rights.resetSso)
    items.push(
      <Menu.Item key="sso" leftSection={<IconKeyOff size={16} />} onClick={() => request('resetSso', [user])}>
        {t('users.actions.resetSso')}
      </Menu.Item>,
    );
  if (rights.archive)
    items.push(
      <Menu.Item
        key="archive"
        color="red"
        leftSection={<IconArchive size={16} />}
        onClick={() => request('archive', [user])}
      >
        {t('users.actions.archive')}
      </Menu.Item>,
    );
  if (rights.restore)
    items.push(
      <Menu.Item key="restore" leftSection={<IconRestore size={16} />} onClick={() => request('restore', [user])}>
        {t('users.actions.restore')}
      </Menu.Item>,
    );
  if (items.length === 0) return null;
  // A plain button: a list holds one per row, and Mantine's are costly by the hundred.
  const trigger = (
    <button
      type="button"
      className="vigil-icon-button"
      aria-label={t('users.actionsFor', { user: user.username })}
      onClick={(event) => {
        event.stopPropagation();
        setArmed(true);
        setOpened((value) => !value);
      }}
      data-testid="user-actions"
    >
      <IconDots size={18} />
    </button>
  );
  // A list has a menu per row: the menu itself is only built once its button is first used.
  if (!armed) return trigger;
  return (
    <Menu position="bottom-end" withinPortal width={230} opened={opened} onChange={setOpened}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown onClick={(event) => event.stopPropagation()}>{items}</Menu.Dropdown>
    </Menu>
  );
}
