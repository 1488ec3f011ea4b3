import {
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Unit as UnitWire } from '@vigil/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, fieldError } from '../../../components/form';
import { ListFooter, LoadError, SortHeader, useSearchBox } from '../../../components/list';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useList, useListState } from '../../../lib/list';
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
  const list = useListState(unitList);
  const { data, error, fetching, fetch } = useList<UnitWire, typeof unitList.filters>(unitList, list);
  const search = useSearchBox(list.filters.search, (value) => list.setFilters({ search: value }));
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
  const companyName = (id: number) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;
  const columns = manyCompanies ? 6 : 5;

  return (
    <Stack gap="lg" className="vigil-list-page">
      <PageHeader
        title={t('units.title')}
        subtitle={t('units.subtitle')}
        actions={
          mayChange && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="unit-create">
              {t('units.create')}
            </Button>
          )
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('units.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
          />
          {manyCompanies && (
            <MultiSelect<number>
              className="vigil-filters__tags"
              label={t('users.company')}
              placeholder={list.filters.companyId?.length ? undefined : t('common.any')}
              data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
              value={list.filters.companyId ?? []}
              onChange={(value) => list.setFilters({ companyId: value })}
              searchable
              clearable
            />
          )}
        </Group>
      </Paper>
      {error && <LoadError message={t('units.loadFailed')} onRetry={() => void fetch()} />}
      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={720}>
          <Table
            className="vigil-table"
            data-testid="units-table"
            data-loading={fetching}
            highlightOnHover
            verticalSpacing="sm"
            horizontalSpacing="md"
            stickyHeader
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader
                  field="name"
                  label={t('units.name')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                {manyCompanies && <Table.Th>{t('users.company')}</Table.Th>}
                <Table.Th>{t('units.description')}</Table.Th>
                <Table.Th>{t('units.users')}</Table.Th>
                <SortHeader
                  field="created_at"
                  label={t('units.createdAt')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th className="vigil-table__actions" aria-label={t('common.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.map((unit) => (
                <Table.Tr
                  key={unit.id}
                  className={mayChange ? 'vigil-table__row' : undefined}
                  onClick={() => mayChange && setEditing(unit)}
                  data-testid="unit-row"
                >
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {unit.name}
                    </Text>
                  </Table.Td>
                  {manyCompanies && <Table.Td>{companyName(unit.companyId)}</Table.Td>}
                  <Table.Td>
                    <Text size="sm" c={unit.description ? undefined : 'dimmed'} lineClamp={1} maw={420}>
                      {unit.description || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>{unit.userCount}</Table.Td>
                  <Table.Td className="vigil-table__mono">{formatDate(unit.createdAt, 'isoDate')}</Table.Td>
                  <Table.Td className="vigil-table__actions" onClick={(event) => event.stopPropagation()}>
                    {mayChange && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} />}
                        onClick={() => setDeleting(unit)}
                      >
                        {t('common.delete')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns} className="vigil-table__empty">
                    {list.filters.search ? t('units.nothingMatches') : t('units.empty')}
                  </Table.Td>
                </Table.Tr>
              )}
              {!data && !error && (
                <Table.Tr>
                  <Table.Td colSpan={columns} className="vigil-table__empty">
                    {t('common.loading')}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ListFooter data={data} list={list} pageSizes={unitList.pageSizes} testId="units" />
      </Paper>
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
    </Stack>
  );
}
