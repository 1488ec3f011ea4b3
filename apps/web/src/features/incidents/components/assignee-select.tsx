import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInUser } from '../../../lib/session';
import { useAssignableUsers, userName } from '../api/hooks';

const UNASSIGNED = '';

/**
 * A user picker over the users one may assign work to; the incident's company's users first, the
 * signed-in user marked. `null` is "unassigned".
 */
export function AssigneeSelect({
  value,
  onChange,
  companyId,
  ...props
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  companyId?: number;
} & Omit<SelectProps, 'value' | 'onChange' | 'data'>) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const { users, loading } = useAssignableUsers();
  const data = useMemo(() => {
    const sorted = [...users].sort((a, b) => {
      const own = Number(b.companyId === companyId) - Number(a.companyId === companyId);
      return own !== 0 ? own : userName(a).localeCompare(userName(b));
    });
    return [
      { value: UNASSIGNED, label: t('triage.unassigned') },
      ...sorted.map((user) => ({
        value: String(user.id),
        label: user.id === me.id ? `${userName(user)} (${t('triage.me')})` : userName(user),
      })),
    ];
  }, [users, companyId, me.id, t]);
  return (
    <Select
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('incidents.noUserFound')}
      data={data}
      value={value === null ? UNASSIGNED : String(value)}
      onChange={(next) => onChange(next ? Number(next) : null)}
      disabled={loading || props.disabled}
      {...props}
    />
  );
}
