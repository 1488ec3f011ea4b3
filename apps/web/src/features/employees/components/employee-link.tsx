import { Tooltip } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigil/contract/client';
import { call } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import { employeePath } from '../api/employees';
import '../../../components/ui/entity-link.css';

/**
 * The employee an account of an event or an address of a mail belongs to, as a link to their page;
 * nothing while it is looked up, when nobody holds it, or for a user who may not view employees.
 */
export function EmployeeLink({
  companyId,
  account,
  email,
}: {
  companyId: number;
  account?: string | null;
  email?: string | null;
}) {
  const { t } = useTranslation();
  const allowed = usePermission({ action: 'view', subject: 'employees' });
  const value = account ?? email ?? null;
  const { data } = useQuery({
    queryKey: ['employees', 'resolve', companyId, account ? 'account' : 'email', value],
    enabled: allowed && value !== null && value.trim() !== '',
    staleTime: 60_000,
    queryFn: ({ signal }) =>
      call(endpoints.employees.resolve, {
        query: { companyId, ...(account ? { account } : { email: email ?? '' }) },
        signal,
      }),
  });
  const employee = data?.employee;
  if (!employee) return null;
  return (
    <Tooltip label={t('triage.employeeLink.open', { name: employee.fullName })} openDelay={300}>
      <Link to={employeePath(employee.id)} className="vigil-entity-link" data-testid="employee-link">
        <IconUser size={13} aria-hidden="true" />
        <span className="vigil-entity-link__name">{employee.fullName}</span>
      </Link>
    </Tooltip>
  );
}
