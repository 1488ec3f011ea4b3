import { Button, Group, Modal, Select, Stack, Text, TextInput, Textarea, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Unit as UnitWire } from '@vigil/contract';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, fieldError } from '../../../components/form';
import type { Column } from '../../../components/list';
import { ListPage, usePagedListPage, type FilterField } from '../../../components/list-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { createUnit, deleteUnit, unitList, updateUnit, type Unit } from '../api/companies';

const UNIT_KEY = ['companies'] as const;

function UnitForm({ unit, onClose }: { unit: Unit | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [name, setName] = useState(unit?.name ?? '');
  const [description, setDescription] = useState(unit?.description ?? '');
  const [companyId, setCompanyId] = useState<number>(unit?.companyId ?? me.companyId);
  const save = useMutation({
    mutationFn: () =>
      unit ? updateUnit(unit.id, { name, description }) : createUnit({ name, description, companyId }),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: unit ? t('units.saved') : t('units.created', { name: answer.name }) });
      await queryClient.invalidateQueries({ queryKey: UNIT_KEY });
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate data-testid="unit-form">
      <Stack gap="md">
        <TextInput
          label={t('units.name')}
          required
          maxLength={150}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={fieldError(save.error, 'name')}
          data-autofocus
        />
        {!unit && me.companies.length > 1 && (
          <Select<number>
            label={t('users.company')}
            data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
            value={companyId}
            onChange={(value) => value !== null && setCompanyId(value)}
            searchable
            allowDeselect={false}
            error={fieldError(save.error, 'companyId')}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Textarea
          label={t('units.description')}
          maxLength={2000}
          autosize
          minRows={3}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          error={fieldError(save.error, 'description')}
        />
        <FormError error={save.error} shownFields={['name', 'description', 'companyId']} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="unit-form-submit">
            {unit ? t('common.save') : t('units.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings → Units: the departments users belong to, per company. */
export default function UnitsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const model = usePagedListPage<UnitWire, typeof unitList.filters>(unitList);
  const mayChange = usePermission({ action: 'change', subject: 'companies' });
  const [editing, setEditing] = useState<Unit | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Unit | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deleteUnit(id),
    onSuccess: async () => {
      notify({ type: 'success', message: t('units.deleted', { name: deleting?.name ?? '' }) });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: UNIT_KEY });
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const manyCompanies = me.companies.length > 1;

  const filters: FilterField<typeof unitList.filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('units.searchPlaceholder') },
    { kind: 'company', name: 'companyId', label: t('users.company') },
  ];
  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<Unit>[]>(() => {
    const companyName = (id: number) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;
    const deleteLabel = t('common.delete');
    const all: (Column<Unit> | null)[] = [
      {
        id: 'name',
        header: t('units.name'),
        width: 'minmax(180px, 1fr)',
        sortField: 'name',
        render: (unit) => <span className="vigil-cell-strong">{unit.name}</span>,
      },
      manyCompanies
        ? { id: 'company', header: t('users.company'), width: '180px', render: (unit) => companyName(unit.companyId) }
        : null,
      {
        id: 'description',
        header: t('units.description'),
        width: 'minmax(200px, 2fr)',
        render: (unit) => (unit.description ? unit.description : <span className="vigil-cell-dimmed">—</span>),
      },
      { id: 'users', header: t('units.users'), width: '90px', render: (unit) => unit.userCount },
      {
        id: 'createdAt',
        header: t('units.createdAt'),
        width: '120px',
        sortField: 'created_at',
        render: (unit) => <span className="vigil-cell-mono">{formatDate(unit.createdAt, 'isoDate')}</span>,
      },
      {
        id: 'actions',
        header: <VisuallyHidden>{t('common.actions')}</VisuallyHidden>,
        width: '110px',
        align: 'end',
        render: (unit) =>
          mayChange ? (
            <button type="button" className="vigil-cell-action" data-danger onClick={() => setDeleting(unit)}>
              <IconTrash size={14} />
              {deleteLabel}
            </button>
          ) : null,
      },
    ];
    return all.filter((column): column is Column<Unit> => column !== null);
  }, [t, me.companies, manyCompanies, mayChange]);

  return (
    <ListPage
      model={model}
      title={t('units.title')}
      subtitle={t('units.subtitle')}
      actions={
        mayChange && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="unit-create">
            {t('units.create')}
          </Button>
        )
      }
      filters={filters}
      table={{
        columns,
        label: t('units.title'),
        testId: 'units-table',
        rowTestId: 'unit-row',
        onRowClick: (unit) => mayChange && setEditing(unit),
        empty: model.list.filters.search ? t('units.nothingMatches') : t('units.empty'),
        loadFailed: t('units.loadFailed'),
      }}
      footerTestId="units"
    >
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={<Text fw={700}>{editing ? t('units.editTitle', { name: editing.name }) : t('units.newTitle')}</Text>}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing !== undefined && (
          <UnitForm key={editing?.id ?? 'new'} unit={editing} onClose={() => setEditing(undefined)} />
        )}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title={t('units.delete')}
        message={t('units.deleteConfirm', { name: deleting?.name ?? '', count: deleting?.userCount ?? 0 })}
        confirmLabel={t('common.delete')}
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </ListPage>
  );
}
