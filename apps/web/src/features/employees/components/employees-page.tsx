import './employees.css';
import { Button, Group, Modal, Text } from '@mantine/core';
import { IconArchive, IconPlus, IconRestore, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Employee as EmployeeWire } from '@vigil/contract';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import {
  companyColumn,
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import { withQuery } from '../../triage/pivots';
import { useSignedInUser } from '../../../lib/session';
import { useUnits } from '../../users/api/lookups';
import {
  archiveEmployee,
  employeeKeys,
  employeeList,
  employeePath,
  restoreEmployee,
  type Employee,
} from '../api/employees';
import { EmployeeForm } from './employee-form';
import { EmployeeImportModal } from './employee-import';

type Filters = typeof employeeList.filters;

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** Values of a list cell: the first two, then how many more. */
function firstValues(values: readonly string[], more: (count: number) => string) {
  if (values.length === 0) return noValue;
  const shown = values.slice(0, 2).join(', ');
  return (
    <span className="vigil-employee-values vigil-cell-mono" title={values.join('\n')}>
      {shown}
      {values.length > 2 && <span className="vigil-cell-dimmed"> {more(values.length - 2)}</span>}
    </span>
  );
}

/** My company → Employees: filters in the URL; add, edit, archive or restore one or many, CSV import. */
export default function EmployeesPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const mayAdd = usePermission({ action: 'add', subject: 'employees' });
  const mayChange = usePermission({ action: 'change', subject: 'employees' });
  const mayArchive = usePermission({ action: 'delete', subject: 'employees' });
  const model = usePagedListPage<EmployeeWire, Filters>(employeeList, { selectable: mayArchive || mayChange });
  const { list, selection } = model;
  const units = useUnits();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [bulkAsked, setBulkAsked] = useState(false);
  const archived = list.filters.archived === true;
  const filtered = Object.keys(list.filters).some((key) => key !== 'archived');

  const bulk = useMutation({
    mutationFn: async (action: 'archive' | 'restore') => {
      const ids = model.rows.filter((row) => selection.has(row.id)).map((row) => row.id);
      for (const id of ids) await (action === 'archive' ? archiveEmployee(id) : restoreEmployee(id));
      return { action, count: ids.length };
    },
    onSuccess: async ({ action, count }) => {
      notify({
        type: 'success',
        message: t(action === 'archive' ? 'employees.bulkArchived' : 'employees.bulkRestored', { count }),
      });
      setBulkAsked(false);
      selection.clear();
      await queryClient.invalidateQueries({ queryKey: employeeKeys.all });
    },
  });

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('employees.searchPlaceholder') },
    { kind: 'tags', name: 'department', label: t('employees.fields.department'), testId: 'filter-department' },
    ...(units.allowed
      ? [
          {
            kind: 'ids',
            name: 'unitId',
            label: t('employees.fields.unit'),
            options: units.units.map((unit) => ({ value: unit.id, label: unit.name })),
            testId: 'filter-unit',
          } as const,
        ]
      : []),
    {
      kind: 'segmented',
      name: 'archived',
      label: t('employees.fields.state'),
      options: [
        { value: undefined, label: t('employees.current') },
        { value: true, label: t('employees.archived') },
      ],
      testId: 'filter-archived',
    },
  ];
  const more: FilterField<Filters>[] = [
    { kind: 'company', name: 'companyId', label: t('employees.fields.company'), testId: 'filter-company' },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const moreLabel = (count: number) => t('employees.more', { count });
    const archivedLabel = t('employees.archived');
    return presentColumns<Employee>([
      {
        id: 'name',
        header: t('employees.fields.fullName'),
        width: 'minmax(170px, 1.4fr)',
        sortField: 'full_name',
        render: (row) =>
          stackCell(
            <Link to={employeePath(row.id)} className="vigil-row__name" onClick={stop}>
              {row.fullName}
            </Link>,
            row.archived ? archivedLabel : row.phone,
          ),
      },
      {
        id: 'emails',
        header: t('employees.fields.emailsShort'),
        width: 'minmax(150px, 1.2fr)',
        render: (row) => firstValues(row.emails, moreLabel),
      },
      {
        id: 'accounts',
        header: t('employees.fields.accounts'),
        width: 'minmax(120px, 1fr)',
        render: (row) => firstValues(row.accounts, moreLabel),
      },
      {
        id: 'department',
        header: t('employees.fields.department'),
        width: 'minmax(150px, 1fr)',
        sortField: 'department',
        render: (row) => (row.department || row.title ? stackCell(row.department || noValue, row.title) : noValue),
      },
      {
        id: 'manager',
        header: t('employees.fields.manager'),
        width: 'minmax(120px, 0.8fr)',
        render: (row) =>
          row.managerId !== null && row.managerName ? (
            <Link to={employeePath(row.managerId)} onClick={stop}>
              {row.managerName}
            </Link>
          ) : (
            noValue
          ),
      },
      {
        id: 'assets',
        header: t('employees.fields.assetCount'),
        width: '70px',
        align: 'end',
        render: (row) =>
          row.assetCount > 0 ? (
            <Link
              to={withQuery('/my-company/assets', { owner_employee_id: row.id })}
              title={t('employees.showOwnedAssets', { name: row.fullName })}
              className="vigil-cell-mono"
              onClick={stop}
              data-testid="employee-asset-count"
            >
              {row.assetCount}
            </Link>
          ) : (
            <span className="vigil-cell-mono vigil-cell-dim">0</span>
          ),
      },
      {
        id: 'unit',
        header: t('employees.fields.unit'),
        width: 'minmax(110px, 0.7fr)',
        render: (row) => row.unitName ?? noValue,
      },
      companyColumn<Employee>(t('employees.fields.company'), me.companies, '130px'),
    ] satisfies (Column<Employee> | null | false)[]);
  }, [t, me.companies]);
  const rowLabel = useCallback((row: Employee) => t('employees.select', { name: row.fullName }), [t]);

  return (
    <ListPage
      model={model}
      title={t('employees.title')}
      subtitle={t('employees.subtitle')}
      actions={
        <Group gap="sm">
          {mayAdd && (
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setImporting(true)}
              data-testid="employee-import-open"
            >
              {t('employees.import.button')}
            </Button>
          )}
          {mayAdd && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
              data-testid="employee-create"
            >
              {t('employees.create')}
            </Button>
          )}
        </Group>
      }
      filters={filters}
      moreFilters={more}
      keepOnReset={['archived']}
      table={{
        columns,
        label: t('employees.title'),
        testId: 'employees-table',
        rowTestId: 'employee-row',
        rowHeight: 52,
        rowLabel,
        rowHref: (row) => employeePath(row.id),
        empty: filtered ? t('employees.nothingMatches') : t('employees.empty'),
        loadFailed: t('employees.loadFailed'),
      }}
      selectAllMatching={false}
      bulkActions={
        (archived ? mayChange : mayArchive) ? (
          <Button
            size="compact-sm"
            color={archived ? undefined : 'red'}
            leftSection={archived ? <IconRestore size={14} /> : <IconArchive size={14} />}
            loading={bulk.isPending}
            onClick={() => (archived ? bulk.mutate('restore') : setBulkAsked(true))}
            data-testid={archived ? 'employee-bulk-restore' : 'employee-bulk-archive'}
          >
            {t(archived ? 'employees.bulkRestore' : 'employees.bulkArchive')}
          </Button>
        ) : undefined
      }
      footerTestId="employees"
    >
      <EmployeeFormModal employee={creating ? null : undefined} onClose={() => setCreating(false)} />
      <EmployeeImportModal opened={importing} onClose={() => setImporting(false)} />
      <ConfirmModal
        opened={bulkAsked}
        title={t('employees.bulkArchiveTitle')}
        message={t('employees.bulkArchiveConfirm', { count: selection.size })}
        confirmLabel={t('employees.archive')}
        danger
        loading={bulk.isPending}
        onConfirm={() => bulk.mutate('archive')}
        onClose={() => setBulkAsked(false)}
      />
    </ListPage>
  );
}

/** The add or edit dialog: `undefined` closed, `null` a new employee. */
export function EmployeeFormModal({
  employee,
  onClose,
}: {
  employee: Employee | null | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={employee !== undefined}
      onClose={onClose}
      title={
        <Text fw={700} lineClamp={1}>
          {employee ? t('employees.editTitle', { name: employee.fullName }) : t('employees.newTitle')}
        </Text>
      }
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {employee !== undefined && <EmployeeForm key={employee?.id ?? 'new'} employee={employee} onClose={onClose} />}
    </Modal>
  );
}
