import './employees.css';
import { Anchor, Badge, Breadcrumbs, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconArchive, IconEdit, IconRestore } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { KeyValues } from '../../../components/list-page';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { Panel } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { useFetchState } from '../../../lib/fetch-state';
import { ApiError } from '../../../lib/http';
import { useTranslation, valueLabel } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link, useParams } from '../../../lib/router';
import { alertUrl, endpointEventsUrl, mailMessageUrl, severityPill, useTriageLabels } from '../../triage';
import type { AlertSeverity } from '@vigil/contract';
import {
  archiveEmployee,
  EMPLOYEES_PATH,
  employeeKeys,
  employeePath,
  fetchActivity,
  fetchEmployee,
  fetchOwnedAssets,
  fetchReports,
  restoreEmployee,
  type Activity,
  type Employee,
} from '../api/employees';
import { EmployeeFormModal } from './employees-page';
import { AssetLink } from '../../assets/components/asset-link';

/** An employee's page: `/my-company/employees/<id>`. */
export default function EmployeePage() {
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { t } = useTranslation();
  const { data, error, fetch } = useFetchState({
    queryKey: employeeKeys.detail(id),
    fetcher: (signal) => fetchEmployee(id, signal),
    enabled: valid,
    clearDataOnFetch: false,
  });
  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  if (!data) return error ? <LoadError message={t('employees.page.loadFailed')} onRetry={() => void fetch()} /> : null;
  return <EmployeeView employee={data} />;
}

function EmployeeView({ employee }: { employee: Employee }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayChange = usePermission({ action: 'change', subject: 'employees' });
  const mayArchive = usePermission({ action: 'delete', subject: 'employees' });
  const [editing, setEditing] = useState(false);
  const [askArchive, setAskArchive] = useState(false);
  const change = useMutation({
    mutationFn: () => (employee.archived ? restoreEmployee(employee.id) : archiveEmployee(employee.id)),
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: t(answer.archived ? 'employees.archivedOne' : 'employees.restoredOne', { name: answer.fullName }),
      });
      setAskArchive(false);
      await queryClient.invalidateQueries({ queryKey: employeeKeys.all });
    },
  });
  const list = (values: readonly string[]) =>
    values.length === 0 ? null : (
      <Stack gap={2}>
        {values.map((value) => (
          <span key={value} className="vigil-cell-mono">
            {value}
          </span>
        ))}
      </Stack>
    );

  return (
    <Stack gap="lg" className="vigil-settings-page vigil-employee-page" data-testid="employee-page">
      <Breadcrumbs>
        <Anchor component={Link} to={EMPLOYEES_PATH} size="sm">
          {t('employees.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {employee.fullName}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" gap="md" wrap="nowrap">
        <Stack gap={6} miw={0}>
          <Group gap="sm">
            <Title order={1} className="vigil-page__title" data-testid="employee-name">
              {employee.fullName}
            </Title>
            {employee.archived && (
              <Badge color="gray" variant="light">
                {t('employees.archived')}
              </Badge>
            )}
          </Group>
          {(employee.title || employee.department) && (
            <Text size="sm" c="dimmed">
              {[employee.title, employee.department].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
        <Group gap="sm" wrap="nowrap">
          {mayChange && (
            <Button
              variant="default"
              leftSection={<IconEdit size={16} />}
              onClick={() => setEditing(true)}
              data-testid="employee-edit"
            >
              {t('employees.edit')}
            </Button>
          )}
          {employee.archived
            ? mayChange && (
                <Button
                  variant="default"
                  leftSection={<IconRestore size={16} />}
                  loading={change.isPending}
                  onClick={() => change.mutate()}
                  data-testid="employee-restore"
                >
                  {t('employees.restore')}
                </Button>
              )
            : mayArchive && (
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconArchive size={16} />}
                  onClick={() => setAskArchive(true)}
                  data-testid="employee-archive"
                >
                  {t('employees.archive')}
                </Button>
              )}
        </Group>
      </Group>
      <div className="vigil-employee-page__grid">
        <div className="vigil-employee-page__facts">
          <Panel title={t('employees.page.facts')} testId="employee-facts">
            <KeyValues
              items={[
                [t('employees.fields.emailsShort'), list(employee.emails)],
                [t('employees.fields.accounts'), list(employee.accounts)],
                [t('employees.fields.department'), employee.department],
                [t('employees.fields.title'), employee.title],
                [
                  t('employees.fields.manager'),
                  employee.managerId !== null && employee.managerName ? (
                    <Anchor component={Link} to={employeePath(employee.managerId)} size="sm">
                      {employee.managerName}
                    </Anchor>
                  ) : null,
                ],
                [t('employees.fields.phone'), employee.phone],
                [t('employees.fields.unit'), employee.unitName],
                [t('employees.fields.distinguishedName'), employee.distinguishedName],
                [t('employees.fields.createdAt'), formatDate(employee.createdAt, 'isoDateTime')],
                [t('employees.fields.updatedAt'), formatDate(employee.updatedAt, 'isoDateTime')],
                [
                  t('employees.fields.archivedAt'),
                  employee.archivedAt && formatDate(employee.archivedAt, 'isoDateTime'),
                ],
              ]}
            />
          </Panel>
          <OwnedAssets employee={employee} />
          <DirectReports employee={employee} />
        </div>
        <Stack gap="lg" miw={0}>
          <EmployeeActivity employee={employee} />
        </Stack>
      </div>
      <EmployeeFormModal employee={editing ? employee : undefined} onClose={() => setEditing(false)} />
      <ConfirmModal
        opened={askArchive}
        title={t('employees.archiveTitle')}
        message={t('employees.archiveConfirm', { name: employee.fullName })}
        confirmLabel={t('employees.archive')}
        danger
        loading={change.isPending}
        onConfirm={() => change.mutate()}
        onClose={() => setAskArchive(false)}
      />
    </Stack>
  );
}

/** Alerts naming the employee, malicious mail they received and their sign-ins: three panels from one call. */
function EmployeeActivity({ employee }: { employee: Employee }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useQuery({
    queryKey: employeeKeys.activity(employee.id),
    queryFn: ({ signal }) => fetchActivity(employee.id, signal),
  });
  const state = (empty: string, items: readonly unknown[] | undefined, body: () => ReactNode) =>
    isPending ? (
      <Loader size="sm" />
    ) : error || !items ? (
      <Text size="sm" c="red">
        {t('employees.page.activityFailed')}
      </Text>
    ) : items.length === 0 ? (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    ) : (
      body()
    );
  return (
    <>
      <Panel title={t('employees.page.alerts')} testId="employee-alerts">
        {state(t('employees.page.noAlerts'), data?.alerts, () => (
          <AlertList alerts={data!.alerts} />
        ))}
      </Panel>
      <Panel title={t('employees.page.mail')} testId="employee-mail">
        {state(t('employees.page.noMail'), data?.maliciousMail, () => (
          <MailList mail={data!.maliciousMail} />
        ))}
      </Panel>
      <Panel title={t('employees.page.signIns')} testId="employee-sign-ins">
        {state(t('employees.page.noSignIns'), data?.signIns, () => (
          <SignIns signIns={data!.signIns} />
        ))}
      </Panel>
    </>
  );
}

function AlertList({ alerts }: { alerts: Activity['alerts'] }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  return (
    <ul className="vigil-employee-activity">
      {alerts.map((alert) => {
        const severity = alert.severity as AlertSeverity;
        return (
          <li key={alert.id} data-testid="employee-alert">
            <Anchor component={Link} to={alertUrl(alert.id)} size="sm" className="vigil-employee-activity__title">
              {alert.title}
            </Anchor>
            <Group gap="xs" wrap="nowrap">
              {severityPill(severity, labels.severity[severity] ?? alert.severity)}
              <Text size="xs" c="dimmed">
                {valueLabel('triage.alertStatus', alert.status)}
              </Text>
              <Text size="xs" c="dimmed" className="vigil-cell-mono">
                #{alert.id} · {formatDate(alert.lastSeen, 'isoDateTime')}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {t('employees.page.matched', { value: alert.matched })}
              </Text>
            </Group>
          </li>
        );
      })}
    </ul>
  );
}

function MailList({ mail }: { mail: Activity['maliciousMail'] }) {
  const { t } = useTranslation();
  return (
    <ul className="vigil-employee-activity">
      {mail.map((message) => (
        <li key={message.id} data-testid="employee-mail-item">
          <Anchor component={Link} to={mailMessageUrl(message.id)} size="sm" className="vigil-employee-activity__title">
            {message.subject || t('employees.page.noSubject')}
          </Anchor>
          <Text size="xs" c="dimmed" truncate>
            {formatDate(message.ts, 'isoDateTime')} ·{' '}
            {t('employees.page.from', { sender: message.sender ?? '—', recipient: message.recipient })}
          </Text>
          {message.alertIds.length > 0 && (
            <Group gap={6}>
              <Text size="xs" c="dimmed">
                {t('employees.page.mailAlerts')}
              </Text>
              {message.alertIds.map((id) => (
                <Anchor key={id} component={Link} to={alertUrl(id)} size="xs" className="vigil-cell-mono">
                  #{id}
                </Anchor>
              ))}
            </Group>
          )}
        </li>
      ))}
    </ul>
  );
}

function SignIns({ signIns }: { signIns: Activity['signIns'] }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing={6} fz="sm" className="vigil-employee-sign-ins">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('employees.page.when')}</Table.Th>
            <Table.Th>{t('employees.page.host')}</Table.Th>
            <Table.Th>{t('employees.page.account')}</Table.Th>
            <Table.Th>{t('employees.page.source')}</Table.Th>
            <Table.Th>{t('employees.page.result')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {signIns.map((signIn) => (
            <Table.Tr key={signIn.id} data-testid="employee-sign-in">
              <Table.Td className="vigil-cell-mono">{formatDate(signIn.ts, 'isoDateTime')}</Table.Td>
              <Table.Td>
                {signIn.hostName ? (
                  <Anchor component={Link} to={endpointEventsUrl({ host_name: signIn.hostName })} size="sm">
                    {signIn.hostName}
                  </Anchor>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td className="vigil-cell-mono">
                {signIn.userName ? (
                  <Anchor component={Link} to={endpointEventsUrl({ user_name: signIn.userName })} size="sm">
                    {signIn.userName}
                  </Anchor>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td className="vigil-cell-mono">{signIn.srcIp ?? '—'}</Table.Td>
              <Table.Td>
                {signIn.action ? valueLabel('endpointActions', signIn.action) : '—'}
                {signIn.outcome === 'failure' && (
                  <Text span size="xs" c="red">
                    {' '}
                    ({valueLabel('employees.outcome', signIn.outcome)})
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The assets the employee owns, each a link to its page; nothing for a user who may not view assets. */
function OwnedAssets({ employee }: { employee: Employee }) {
  const { t } = useTranslation();
  const allowed = usePermission({ action: 'view', subject: 'assets' });
  const { data } = useQuery({
    queryKey: employeeKeys.assets(employee.id),
    queryFn: ({ signal }) => fetchOwnedAssets(employee.id, signal),
    enabled: allowed,
  });
  if (!allowed || !data) return null;
  return (
    <Panel title={t('employees.page.assets', { count: data.count })} testId="employee-assets">
      {data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('employees.page.noAssets')}
        </Text>
      ) : (
        <Stack gap={4}>
          {data.results.map((asset) => (
            <Group key={asset.id} gap="xs" wrap="nowrap">
              <AssetLink asset={asset} testId="employee-asset" />
              <Text size="xs" c="dimmed" truncate>
                {asset.ips.join(', ')}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Panel>
  );
}

/** The employees this one manages, each a link to their page; nothing when there are none. */
function DirectReports({ employee }: { employee: Employee }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: employeeKeys.reports(employee.id),
    queryFn: ({ signal }) => fetchReports(employee.id, signal),
  });
  if (!data || data.results.length === 0) return null;
  return (
    <Panel title={t('employees.page.reports', { count: data.count })} testId="employee-reports">
      <Stack gap={4}>
        {data.results.map((report) => (
          <Group key={report.id} gap="xs" wrap="nowrap">
            <Anchor component={Link} to={employeePath(report.id)} size="sm">
              {report.fullName}
            </Anchor>
            {report.title && (
              <Text size="xs" c="dimmed" truncate>
                {report.title}
              </Text>
            )}
          </Group>
        ))}
      </Stack>
    </Panel>
  );
}
