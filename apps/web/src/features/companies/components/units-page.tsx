import { Button, Modal, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Unit as UnitWire } from '@vigil/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { CompanySelect, FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import {
  companyColumn,
  dateColumn,
  deleteColumn,
  ListPage,
  noValue,
  presentColumns,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
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
  return (
    <FormFrame onSubmit={() => save.mutate()} testId="unit-form">
      <TextInput
        label={t('units.name')}
        required
        maxLength={150}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(save.error, 'name')}
        data-autofocus
      />
      {!unit && <CompanySelect value={companyId} onChange={setCompanyId} error={fieldError(save.error, 'companyId')} />}
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
      <FormActions
        onCancel={onClose}
        submitLabel={unit ? t('common.save') : t('units.create')}
        loading={save.isPending}
        submitTestId="unit-form-submit"
      />
    </FormFrame>
  );
}

/** Settings → Units: the departments users belong to, per company. */
export default function UnitsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const model = usePagedListPage<UnitWire, typeof unitList.filters>(unitList);
  const mayChange = usePermission({ action: 'change', subject: 'companies' });
  const [editing, setEditing] = useState<Unit | null | undefined>(undefined);
  const removal = useRowDelete<Unit>({
    remove: deleteUnit,
    invalidate: [UNIT_KEY, ['users']],
    title: t('units.delete'),
    question: (unit) => t('units.deleteConfirm', { name: unit.name, count: unit.userCount }),
    deleted: (unit) => t('units.deleted', { name: unit.name }),
  });
  const ask = removal.ask;

  const filters: FilterField<typeof unitList.filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('units.searchPlaceholder') },
    { kind: 'company', name: 'companyId', label: t('users.company') },
  ];
  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(
    () =>
      presentColumns<Unit>([
        {
          id: 'name',
          header: t('units.name'),
          width: 'minmax(180px, 1fr)',
          sortField: 'name',
          render: (unit) => <span className="vigil-cell-strong">{unit.name}</span>,
        },
        companyColumn(t('users.company'), me.companies),
        {
          id: 'description',
          header: t('units.description'),
          width: 'minmax(200px, 2fr)',
          render: (unit) => unit.description || noValue,
        },
        { id: 'users', header: t('units.users'), width: '120px', render: (unit) => unit.userCount },
        dateColumn('createdAt', t('units.createdAt'), (unit) => unit.createdAt, {
          sortField: 'created_at',
          format: 'isoDate',
        }),
        deleteColumn({ header: t('common.actions'), delete: t('common.delete') }, mayChange, ask),
      ]),
    [t, me.companies, mayChange, ask],
  );

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
      {removal.dialog}
    </ListPage>
  );
}
