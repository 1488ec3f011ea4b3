import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { User } from '../api/users';
import { SideDrawer } from '../../../components/ui/side-drawer';

// The form and its inputs are their own chunk: a list page does not wait for them.
const UserForm = lazy(() => import('./user-form-body'));

/** Create (`user` null) or edit a user, in a drawer beside the list or the user's page. */
export function UserFormDrawer({
  opened,
  user,
  onClose,
  onSaved = () => undefined,
}: {
  opened: boolean;
  user: User | null;
  onClose: () => void;
  onSaved?: (user: User) => void;
}) {
  const { t } = useTranslation();
  return (
    <SideDrawer
      opened={opened}
      onClose={onClose}
      size={640}
      title={user ? t('users.editTitle', { user: user.username }) : t('users.newTitle')}
    >
      {/* A new form for each user opened; closing and opening the same one keeps nothing stale. */}
      {opened && (
        <Suspense fallback={<Loader size="sm" />}>
          <UserForm key={user?.id ?? 'new'} user={user} onClose={onClose} onSaved={onSaved} />
        </Suspense>
      )}
    </SideDrawer>
  );
}
