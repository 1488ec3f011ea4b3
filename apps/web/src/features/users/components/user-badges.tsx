import { useTranslation } from 'react-i18next';
import type { User } from '../api/users';

/**
 * What is worth noticing about a user at a glance: archived, locked, not activated, two-factor,
 * superuser. Plain elements, as a list shows them on every row.
 */
export function UserBadges({
  user,
}: {
  user: Pick<User, 'archived' | 'locked' | 'activated' | 'twoFactorEnabled' | 'isSuperuser'>;
}) {
  const { t } = useTranslation();
  return (
    <span className="vigil-pills">
      {user.archived && <span className="vigil-pill vigil-pill--grey">{t('users.badge.archived')}</span>}
      {user.locked && <span className="vigil-pill vigil-pill--red">{t('users.badge.locked')}</span>}
      {!user.activated && (
        <span className="vigil-pill vigil-pill--yellow" title={t('users.badge.pendingHint')}>
          {t('users.badge.pending')}
        </span>
      )}
      {user.twoFactorEnabled && <span className="vigil-pill vigil-pill--green">{t('users.badge.twoFactor')}</span>}
      {user.isSuperuser && <span className="vigil-pill vigil-pill--purple">{t('users.superuser')}</span>}
    </span>
  );
}
