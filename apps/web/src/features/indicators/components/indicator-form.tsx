import { Checkbox, Group, SegmentedControl, Input, Select, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSeverityValues } from '@vigil/contract/client';
import { useState } from 'react';
import { CompanySelect, FormActions, FormError, FormFrame, fieldProblem } from '../../../components/form';
import { isoToZonedInput, zonedInputToIso } from '../../../lib/dates';
import { DateTimeInput } from '../../../lib/dates/date-time-field';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import {
  createIndicator,
  indicatorFormFields,
  indicatorKeys,
  updateIndicator,
  type Indicator,
} from '../api/indicators';
import { indicatorTypeValues } from './indicator-values';

type Severity = (typeof alertSeverityValues)[number];
type IndicatorType = (typeof indicatorTypeValues)[number];

/** An indicator's fields; a new one also names its company (or every company). Type is fixed once made. */
export function IndicatorForm({ indicator, onClose }: { indicator: Indicator | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    type: (indicator?.type ?? 'ip') as IndicatorType,
    value: indicator?.value ?? '',
    policy: indicator?.policy ?? 'alert',
    severity: (indicator?.severity ?? 'medium') as Severity,
    expiresAt: isoToZonedInput(indicator?.expiresAt ?? null),
    tags: indicator?.tags ?? [],
    source: indicator?.source ?? '',
    description: indicator?.description ?? '',
    companyId: indicator?.companyId ?? me.companyId,
    allCompanies: indicator?.scope === 'all',
  });
  const set = <K extends keyof typeof form>(field: K, value: (typeof form)[K]) =>
    setForm((previous) => ({ ...previous, [field]: value }));

  const save = useMutation({
    mutationFn: () => {
      const fields = {
        value: form.value,
        policy: form.policy,
        severity: form.severity,
        expiresAt: form.expiresAt ? zonedInputToIso(form.expiresAt) : null,
        tags: form.tags,
        source: form.source,
        description: form.description,
      };
      return indicator
        ? updateIndicator(indicator.id, fields)
        : createIndicator({
            ...fields,
            type: form.type,
            ...(form.allCompanies ? { allCompanies: true } : { companyId: form.companyId }),
          });
    },
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: indicator ? t('indicators.saved') : t('indicators.created', { value: answer.value }),
      });
      await queryClient.invalidateQueries({ queryKey: indicatorKeys.all });
      onClose();
    },
  });
  const error = (field: (typeof indicatorFormFields)[number]) =>
    fieldProblem(save.error, field, i18n.language, () => t(`indicators.errors.${field}`));

  return (
    <FormFrame onSubmit={() => save.mutate()} testId="indicator-form">
      <Group grow align="flex-start">
        <Select
          label={t('indicators.fields.type')}
          data={indicatorTypeValues.map((value) => ({ value, label: t(`indicators.type.${value}`) }))}
          value={form.type}
          onChange={(next) => next && set('type', next as IndicatorType)}
          allowDeselect={false}
          disabled={indicator !== null}
          error={error('type')}
          comboboxProps={{ withinPortal: true }}
          data-testid="indicator-type"
        />
        <Select
          label={t('indicators.fields.severity')}
          data={[...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) }))}
          value={form.severity}
          onChange={(next) => next && set('severity', next as Severity)}
          allowDeselect={false}
          error={error('severity')}
          comboboxProps={{ withinPortal: true }}
          data-testid="indicator-severity"
        />
      </Group>
      <TextInput
        label={t('indicators.fields.value')}
        description={t('indicators.hints.value')}
        required
        maxLength={2048}
        value={form.value}
        onChange={(event) => set('value', event.currentTarget.value)}
        error={error('value')}
        classNames={{ input: 'vigil-cell-mono' }}
        data-autofocus
        data-testid="indicator-value"
      />
      <Input.Wrapper label={t('indicators.fields.policy')} error={error('policy')}>
        <div>
          <SegmentedControl
            value={form.policy}
            onChange={(next) => set('policy', next as typeof form.policy)}
            data={[
              { value: 'alert', label: t('indicators.policy.alert') },
              { value: 'ignore', label: t('indicators.policy.ignore') },
            ]}
            data-testid="indicator-policy"
          />
        </div>
      </Input.Wrapper>
      <DateTimeInput
        label={t('indicators.fields.expiresAt')}
        value={form.expiresAt}
        onChange={(next) => set('expiresAt', next)}
        error={error('expiresAt')}
        data-testid="indicator-expires"
      />
      <TagsInput
        label={t('indicators.fields.tags')}
        description={t('indicators.hints.tags')}
        value={form.tags}
        onChange={(next) => set('tags', next)}
        maxTags={50}
        clearable
        error={error('tags')}
        data-testid="indicator-tags"
      />
      <TextInput
        label={t('indicators.fields.source')}
        maxLength={200}
        value={form.source}
        onChange={(event) => set('source', event.currentTarget.value)}
        error={error('source')}
      />
      <Textarea
        label={t('indicators.fields.description')}
        maxLength={4000}
        autosize
        minRows={2}
        maxRows={6}
        value={form.description}
        onChange={(event) => set('description', event.currentTarget.value)}
        error={error('description')}
      />
      {!indicator && me.companies.length > 1 && (
        <>
          <Checkbox
            label={t('indicators.allCompanies')}
            description={t('indicators.hints.allCompanies')}
            checked={form.allCompanies}
            onChange={(event) => set('allCompanies', event.currentTarget.checked)}
            error={error('allCompanies')}
          />
          {!form.allCompanies && (
            <CompanySelect value={form.companyId} onChange={(id) => set('companyId', id)} error={error('companyId')} />
          )}
        </>
      )}
      <FormError error={save.error} shownFields={indicatorFormFields} />
      <FormActions
        onCancel={onClose}
        submitLabel={indicator ? t('common.save') : t('indicators.create')}
        loading={save.isPending}
        submitTestId="indicator-form-submit"
      />
    </FormFrame>
  );
}
