import { Tabs } from '@mantine/core';
import { IconUsers, IconUserCog } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from '../../../lib/router';

export const USERS_PATH = '/settings/users';
export const ROLES_PATH = '/settings/users/roles';

/** Users and roles are administered together: two tabs, each its own address. */
export function UsersTabs({ active }: { active: 'users' | 'roles' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={active}
      onChange={(value) => value && value !== active && navigate(value === 'roles' ? ROLES_PATH : USERS_PATH)}
    >
      <Tabs.List>
        <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
          {t('users.tabUsers')}
        </Tabs.Tab>
        <Tabs.Tab value="roles" leftSection={<IconUserCog size={16} />} data-testid="roles-tab">
          {t('users.tabRoles')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
