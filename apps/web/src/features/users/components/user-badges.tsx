import { Badge, Group, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '../api/users';

/** What is worth noticing about a user at a glance: archived, locked, not activated, two-factor, superuser. */
export function UserBadges({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      {user.archived && (
        <Badge size="sm" color="gray" variant="filled">
          {t('users.badge.archived')}
        </Badge>
      )}
      {user.locked && (
        <Badge size="sm" color="red" variant="light">
          {t('users.badge.locked')}
        </Badge>
      )}
      {!user.activated && (
        <Tooltip label={t('users.badge.pendingHint')} withArrow>
          <Badge size="sm" color="yellow" variant="light">
            {t('users.badge.pending')}
          </Badge>
        </Tooltip>
      )}
      {user.twoFactorEnabled && (
        <Badge size="sm" color="teal" variant="light">
          {t('users.badge.twoFactor')}
        </Badge>
      )}
      {user.isSuperuser && (
        <Badge size="sm" color="grape" variant="light">
          {t('users.superuser')}
        </Badge>
      )}
    </Group>
  );
}
