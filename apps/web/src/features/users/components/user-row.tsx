import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '../../../lib/dates';
import type { User } from '../api/users';
import { UserActionsMenu, type UserAction, type UserActionRights } from './user-actions';
import { UserBadges } from './user-badges';

export interface UserRowProps {
  user: User;
  path: string;
  rights: UserActionRights;
  selected: boolean;
  selectable: boolean;
  /** Names of the user's roles, in its order. */
  roleNames: readonly string[];
  onToggle: (user: User, on: boolean) => void;
  onEdit: (user: User) => void;
  request: (action: UserAction, users: User[]) => void;
}

const MAX_ROLES_SHOWN = 3;

/**
 * One row of the users list, in plain table elements (a page holds up to 200 of them) and
 * memoised, so selecting one row or loading role names does not rebuild the others.
 */
export const UserRow = memo(function UserRow({
  user,
  path,
  rights,
  selected,
  selectable,
  roleNames,
  onToggle,
  onEdit,
  request,
}: UserRowProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
  return (
    <tr
      className="vigil-row vigil-table__row"
      data-selected={selected || undefined}
      onClick={() => navigate(path)}
      data-testid="user-row"
    >
      <td className="vigil-td vigil-table__check" onClick={stop}>
        <input
          type="checkbox"
          className="vigil-check"
          aria-label={t('users.select', { user: user.username })}
          checked={selected}
          disabled={!selectable}
          onChange={(event) => onToggle(user, event.currentTarget.checked)}
        />
      </td>
      <td className="vigil-td">
        <Link to={path} className="vigil-row__name" onClick={stop}>
          {user.fullName}
        </Link>
        <div className="vigil-row__sub vigil-table__mono-inline">{user.username}</div>
      </td>
      <td className="vigil-td">{user.email ?? <span className="vigil-row__none">—</span>}</td>
      <td className="vigil-td">
        {user.companyName}
        {user.allCompanies && <div className="vigil-row__sub">{t('users.allCompaniesShort')}</div>}
      </td>
      <td className="vigil-td">
        <span className="vigil-pills">
          {roleNames.slice(0, MAX_ROLES_SHOWN).map((name, index) => (
            <span key={`${name}-${index}`} className="vigil-pill vigil-pill--outline">
              {name}
            </span>
          ))}
          {roleNames.length > MAX_ROLES_SHOWN && (
            <span className="vigil-pill vigil-pill--outline">+{roleNames.length - MAX_ROLES_SHOWN}</span>
          )}
        </span>
      </td>
      <td className="vigil-td">
        <UserBadges user={user} />
      </td>
      <td className="vigil-td vigil-table__mono">{formatDate(user.lastLoginAt, 'isoDateTime')}</td>
      <td className="vigil-td vigil-table__actions" onClick={stop}>
        <UserActionsMenu user={user} rights={rights} onEdit={onEdit} request={request} />
      </td>
    </tr>
  );
});
