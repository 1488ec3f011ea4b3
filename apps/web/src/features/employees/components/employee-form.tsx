import { Group, Select, TagsInput, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CompanySelect, FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import { useUnits } from '../../users/api/lookups';
import {
  createEmployee,
  employeeFormFields,
  employeeKeys,
  searchEmployees,
  updateEmployee,
  type Employee,
} from '../api/employees';

type Field = (typeof employeeFormFields)[number];

/** Examples of the log-in names an account may be written as (the same in every language). */
export const ACCOUNT_EXAMPLES = 'CORP\\jdoe, jdoe@corp.example, jdoe';

/** An employee's fields; a new one also names its company. The manager is another employee of that company. */
export function EmployeeForm({ employee, onClose }: { employee: Employee | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const units = useUnits();
  const [form, setForm] = useState({
    fullName: employee?.fullName ?? '',
    emails: employee?.emails ?? [],
    accounts: employee?.accounts ?? [],
    department: employee?.department ?? '',
    title: employee?.title ?? '',
    phone: employee?.phone ?? '',
    managerId: employee?.managerId ?? null,
    unitId: employee?.unitId ?? null,
    companyId: employee?.companyId ?? me.companyId,
  });
  const set = <K extends keyof typeof form>(field: K, value: (typeof form)[K]) =>
    setForm((previous) => ({ ...previous, [field]: value }));

  const save = useMutation({
    mutationFn: () => {
      const { companyId, ...fields } = form;
      return employee ? updateEmployee(employee.id, fields) : createEmployee({ ...fields, companyId });
    },
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: employee ? t('employees.saved') : t('employees.created', { name: answer.fullName }),
      });
      await queryClient.invalidateQueries({ queryKey: employeeKeys.all });
      onClose();
    },
  });
  // The server's reasons are in English: a field it refused is shown with its text in the interface language.
  const error = (field: Field) => (fieldError(save.error, field) ? t(`employees.errors.${field}`) : undefined);
  const companyUnits = units.units.filter((unit) => unit.companyId === form.companyId);

  return (
    <FormFrame onSubmit={() => save.mutate()} testId="employee-form">
      {!employee && me.companies.length > 1 && (
        <CompanySelect
          value={form.companyId}
          onChange={(id) => setForm((previous) => ({ ...previous, companyId: id, managerId: null, unitId: null }))}
          error={error('companyId')}
        />
      )}
      <TextInput
        label={t('employees.fields.fullName')}
        required
        maxLength={200}
        value={form.fullName}
        onChange={(event) => set('fullName', event.currentTarget.value)}
        error={error('fullName')}
        data-autofocus
        data-testid="employee-full-name"
      />
      <TagsInput
        label={t('employees.fields.emails')}
        description={t('employees.hints.emails')}
        value={form.emails}
        onChange={(next) => set('emails', next)}
        maxTags={50}
        clearable
        splitChars={[',', ' ', ';']}
        error={error('emails')}
        data-testid="employee-emails"
      />
      <TagsInput
        label={t('employees.fields.accounts')}
        description={t('employees.hints.accounts', { examples: ACCOUNT_EXAMPLES })}
        value={form.accounts}
        onChange={(next) => set('accounts', next)}
        maxTags={50}
        clearable
        splitChars={[',', ' ', ';']}
        error={error('accounts')}
        data-testid="employee-accounts"
      />
      <Group grow align="flex-start">
        <TextInput
          label={t('employees.fields.department')}
          maxLength={200}
          value={form.department}
          onChange={(event) => set('department', event.currentTarget.value)}
          error={error('department')}
          data-testid="employee-department"
        />
        <TextInput
          label={t('employees.fields.title')}
          maxLength={200}
          value={form.title}
          onChange={(event) => set('title', event.currentTarget.value)}
          error={error('title')}
          data-testid="employee-title"
        />
      </Group>
      <Group grow align="flex-start">
        <ManagerSelect
          companyId={form.companyId}
          self={employee}
          value={form.managerId}
          onChange={(id) => set('managerId', id)}
          error={error('managerId')}
        />
        <TextInput
          label={t('employees.fields.phone')}
          maxLength={50}
          value={form.phone}
          onChange={(event) => set('phone', event.currentTarget.value)}
          error={error('phone')}
        />
      </Group>
      {units.allowed && (
        <Select
          label={t('employees.fields.unit')}
          placeholder={t('employees.noUnit')}
          data={companyUnits.map((unit) => ({ value: String(unit.id), label: unit.name }))}
          value={form.unitId === null ? null : String(form.unitId)}
          onChange={(next) => set('unitId', next ? Number(next) : null)}
          clearable
          searchable
          error={error('unitId')}
          comboboxProps={{ withinPortal: true }}
          data-testid="employee-unit"
        />
      )}
      <FormError error={save.error} shownFields={employeeFormFields} />
      <FormActions
        onCancel={onClose}
        submitLabel={employee ? t('common.save') : t('employees.create')}
        loading={save.isPending}
        submitTestId="employee-form-submit"
      />
    </FormFrame>
  );
}

/** Another employee of the company, found by typing part of a name or address. */
function ManagerSelect({
  companyId,
  self,
  value,
  onChange,
  error,
}: {
  companyId: number;
  self: Employee | null;
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useQuery({
    queryKey: employeeKeys.managers(companyId, debounced),
    queryFn: ({ signal }) => searchEmployees(companyId, debounced, signal),
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const rows = (found.data?.results ?? []).filter((row) => row.id !== self?.id);
    const choices = rows.map((row) => ({ value: String(row.id), label: row.fullName }));
    // The current manager stays a choice whatever the search found.
    if (value !== null && !choices.some((choice) => choice.value === String(value)) && self?.managerName) {
      choices.unshift({ value: String(value), label: self.managerName });
    }
    return choices;
  }, [found.data, self, value]);
  return (
    <Select
      label={t('employees.fields.manager')}
      description={t('employees.hints.manager')}
      placeholder={t('employees.noManager')}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : null)}
      searchable
      clearable
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid="employee-manager"
    />
  );
}
