import { Group, Select, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssetCriticality, AssetKind } from '@vigil/contract';
import { assetCriticalityValues, assetKindValues, endpoints } from '@vigil/contract/client';
import { useState } from 'react';
import { CompanySelect, FormActions, FormError, FormFrame, fieldProblem } from '../../../components/form';
import { call } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { useUnits } from '../../users/api/lookups';
import { assetFormFields, assetKeys, createAsset, updateAsset, useOwnerNames, type Asset } from '../api/assets';

/** An asset's fields, by hand; a new one also names its company when the user sees several. */
export function AssetForm({ asset, onClose }: { asset: Asset | null; onClose: (saved?: Asset) => void }) {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const units = useUnits();
  const [form, setForm] = useState({
    name: asset?.name ?? '',
    kind: (asset?.kind ?? 'workstation') as AssetKind,
    criticality: (asset?.criticality ?? 'medium') as AssetCriticality,
    osName: asset?.osName ?? '',
    osVersion: asset?.osVersion ?? '',
    fqdn: asset?.fqdn ?? '',
    ips: asset?.ips ?? [],
    macs: asset?.macs ?? [],
    tags: asset?.tags ?? [],
    unitId: asset?.unitId ?? null,
    ownerEmployeeId: asset?.ownerEmployeeId ?? null,
    agentId: asset?.agentId ?? '',
    notes: asset?.notes ?? '',
    companyId: asset?.companyId ?? me.companyId,
  });
  const set = <K extends keyof typeof form>(field: K, value: (typeof form)[K]) =>
    setForm((previous) => ({ ...previous, [field]: value }));

  const save = useMutation({
    mutationFn: () => {
      const { companyId, ...fields } = form;
      return asset ? updateAsset(asset.id, fields) : createAsset({ ...fields, companyId });
    },
    onSuccess: async (answer) => {
      notify({ type: 'success', message: asset ? t('assets.saved') : t('assets.created', { name: answer.name }) });
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose(answer);
    },
  });
  const error = (field: (typeof assetFormFields)[number]) =>
    fieldProblem(save.error, field, i18n.language, () => t(`assets.errors.${field}`));

  return (
    <FormFrame onSubmit={() => save.mutate()} testId="asset-form">
      <TextInput
        label={t('assets.fields.name')}
        required
        maxLength={255}
        value={form.name}
        onChange={(event) => set('name', event.currentTarget.value)}
        error={error('name')}
        data-autofocus
        data-testid="asset-name"
      />
      <Group grow align="flex-start">
        <Select
          label={t('assets.fields.kind')}
          data={assetKindValues.map((value) => ({ value, label: t(`assets.kind.${value}`) }))}
          value={form.kind}
          onChange={(next) => next && set('kind', next as AssetKind)}
          allowDeselect={false}
          error={error('kind')}
          comboboxProps={{ withinPortal: true }}
          data-testid="asset-kind"
        />
        <Select
          label={t('assets.fields.criticality')}
          data={assetCriticalityValues.map((value) => ({ value, label: t(`assets.criticality.${value}`) }))}
          value={form.criticality}
          onChange={(next) => next && set('criticality', next as AssetCriticality)}
          allowDeselect={false}
          error={error('criticality')}
          comboboxProps={{ withinPortal: true }}
          data-testid="asset-criticality"
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label={t('assets.fields.osName')}
          maxLength={200}
          value={form.osName}
          onChange={(event) => set('osName', event.currentTarget.value)}
          error={error('osName')}
          data-testid="asset-os-name"
        />
        <TextInput
          label={t('assets.fields.osVersion')}
          maxLength={100}
          value={form.osVersion}
          onChange={(event) => set('osVersion', event.currentTarget.value)}
          error={error('osVersion')}
        />
      </Group>
      <TextInput
        label={t('assets.fields.fqdn')}
        maxLength={255}
        value={form.fqdn}
        onChange={(event) => set('fqdn', event.currentTarget.value)}
        error={error('fqdn')}
        classNames={{ input: 'vigil-cell-mono' }}
        data-testid="asset-fqdn"
      />
      <TagsInput
        label={t('assets.fields.ips')}
        description={t('assets.hints.ips')}
        value={form.ips}
        onChange={(next) => set('ips', next)}
        splitChars={[',', ' ', ';']}
        acceptValueOnBlur
        maxTags={64}
        clearable
        error={error('ips')}
        classNames={{ pill: 'vigil-cell-mono' }}
        data-testid="asset-ips"
      />
      <TagsInput
        label={t('assets.fields.macs')}
        description={t('assets.hints.macs', { example: '00:1a:2b:3c:4d:5e' })}
        value={form.macs}
        onChange={(next) => set('macs', next)}
        splitChars={[',', ' ', ';']}
        acceptValueOnBlur
        maxTags={64}
        clearable
        error={error('macs')}
        data-testid="asset-macs"
      />
      <TagsInput
        label={t('assets.fields.tags')}
        description={t('assets.hints.tags')}
        value={form.tags}
        onChange={(next) => set('tags', next)}
        acceptValueOnBlur
        maxTags={50}
        clearable
        error={error('tags')}
        data-testid="asset-tags"
      />
      <Group grow align="flex-start">
        <OwnerSelect value={form.ownerEmployeeId} onChange={(id) => set('ownerEmployeeId', id)} />
        {units.allowed && (
          <Select
            label={t('assets.fields.unit')}
            data={units.units
              .filter((unit) => unit.companyId === form.companyId)
              .map((unit) => ({ value: String(unit.id), label: unit.name }))}
            value={form.unitId === null ? null : String(form.unitId)}
            onChange={(next) => set('unitId', next ? Number(next) : null)}
            clearable
            searchable
            error={error('unitId')}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      </Group>
      <TextInput
        label={t('assets.fields.agentId')}
        maxLength={200}
        value={form.agentId}
        onChange={(event) => set('agentId', event.currentTarget.value)}
        error={error('agentId')}
        classNames={{ input: 'vigil-cell-mono' }}
      />
      <Textarea
        label={t('assets.fields.notes')}
        maxLength={10_000}
        autosize
        minRows={2}
        maxRows={6}
        value={form.notes}
        onChange={(event) => set('notes', event.currentTarget.value)}
        error={error('notes')}
        data-testid="asset-notes"
      />
      {!asset && me.companies.length > 1 && (
        <CompanySelect value={form.companyId} onChange={(id) => set('companyId', id)} error={error('companyId')} />
      )}
      <FormError error={save.error} shownFields={assetFormFields} />
      <FormActions
        onCancel={() => onClose()}
        submitLabel={asset ? t('common.save') : t('assets.create')}
        loading={save.isPending}
        submitTestId="asset-form-submit"
      />
    </FormFrame>
  );
}

/** The owner, an employee found by name (shown only to those who may see employees); of one company if given. */
export function OwnerSelect({
  value,
  onChange,
  companyId,
  error,
  placeholder,
  className,
  testId = 'asset-owner',
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  companyId?: number;
  error?: string;
  placeholder?: string;
  className?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const allowed = usePermission({ action: 'view', subject: 'employees' });
  const [search, setSearch] = useState('');
  const current = useOwnerNames([value]);
  const { data } = useQuery({
    queryKey: ['assets', 'owner-search', companyId ?? null, search],
    queryFn: ({ signal }) =>
      call(endpoints.employees.list, {
        query: { pageSize: 20 },
        body: { ...(search ? { search } : {}), ...(companyId ? { companyId } : {}) },
        signal,
      }),
    enabled: allowed,
    staleTime: 30_000,
  });
  if (!allowed) return null;
  const options = (data?.results ?? []).map((e) => ({ value: String(e.id), label: e.fullName }));
  if (value !== null && !options.some((option) => option.value === String(value))) {
    options.unshift({ value: String(value), label: current.get(value) ?? `#${value}` });
  }
  return (
    <Select
      label={t('assets.fields.owner')}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : null)}
      searchable
      clearable
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      comboboxProps={{ withinPortal: true }}
      error={error}
      placeholder={placeholder}
      className={className}
      data-testid={testId}
    />
  );
}
