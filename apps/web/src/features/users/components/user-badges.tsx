import type { TFunction } from '../../../lib/i18n';
import { useTranslation } from '../../../lib/i18n';
import type { User } from '../api/users';

type BadgeUser = Pick<User, 'archived' | 'locked' | 'activated' | 'twoFactorEnabled' | 'isSuperuser'>;

/** The badges' texts, read once (a list reads them once per table, not once per row). */
export function userBadgeLabels(t: TFunction) {
  return {
    archived: t('users.badge.archived'),
    locked: t('users.badge.locked'),
    pending: t('users.badge.pending'),
    pendingHint: t('users.badge.pendingHint'),
    twoFactor: t('users.badge.twoFactor'),
    superuser: t('users.superuser'),
  };
}
export type UserBadgeLabels = ReturnType<typeof userBadgeLabels>;

/**
 * What is worth noticing about a user at a glance: archived, locked, not activated, two-factor,
 * superuser. Plain elements, as a list shows them on every row.
 */
export function userBadges(user: BadgeUser, labels: UserBadgeLabels) {
  return (
    <span className="vigil-pills">
      {user.archived && <span className="vigil-pill vigil-pill--grey">{labels.archived}</span>}
      {user.locked && <span className="vigil-pill vigil-pill--red">{labels.locked}</span>}
      {!user.activated && (
        <span className="vigil-pill vigil-pill--yellow" title={labels.pendingHint}>
          {labels.pending}
        </span>
      )}
      {user.twoFactorEnabled && <span className="vigil-pill vigil-pill--green">{labels.twoFactor}</span>}
      {user.isSuperuser && <span className="vigil-pill vigil-pill--purple">{labels.superuser}</span>}
    </span>
  );
}

/** The badges of one user (its page). */
export function UserBadges({ user }: { user: BadgeUser }) {
  const { t } = useTranslation();
  return userBadges(user, userBadgeLabels(t));
}
