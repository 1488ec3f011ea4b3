import { Modal, Select, Stack, TagsInput, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { assetCriticalityValues } from '@vigil/contract/client';
import { useState } from 'react';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { assetKeys, bulkChangeAssets, type Asset } from '../api/assets';
import { OwnerSelect } from './asset-form';
import { useAssetLabels } from './asset-cells';

/**
 * One change to the chosen assets: criticality, owner (an employee of their company, offered only when
 * they all belong to one), tags added or taken away. Fields left empty change nothing.
 */
export function BulkChangeModal({
  assets,
  onClose,
}: {
  assets: readonly Asset[];
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={assets.length > 0}
      onClose={() => onClose(false)}
      title={<Text fw={700}>{t('assets.bulk.title', { count: assets.length })}</Text>}
      centered
      size="md"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {assets.length > 0 && <BulkForm assets={assets} onClose={onClose} />}
    </Modal>
  );
}

/** The fields the bulk form shows problems beside. */
const bulkFields = ['criticality', 'ownerEmployeeId', 'addTags', 'removeTags'];

function BulkForm({ assets, onClose }: { assets: readonly Asset[]; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const labels = useAssetLabels();
  const queryClient = useQueryClient();
  const companies = [...new Set(assets.map((a) => a.companyId))];
  const [criticality, setCriticality] = useState<string | null>(null);
  const [owner, setOwner] = useState<number | null>(null);
  const [addTags, setAddTags] = useState<string[]>([]);
  const [removeTags, setRemoveTags] = useState<string[]>([]);
  const nothing = criticality === null && owner === null && addTags.length === 0 && removeTags.length === 0;
  const save = useMutation({
    mutationFn: () =>
      bulkChangeAssets({
        ids: assets.map((a) => a.id),
        ...(criticality ? { criticality: criticality as Asset['criticality'] } : {}),
        ...(owner !== null ? { ownerEmployeeId: owner } : {}),
        ...(addTags.length > 0 ? { addTags } : {}),
        ...(removeTags.length > 0 ? { removeTags } : {}),
      }),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('assets.bulk.done', { changed: answer.changed, matched: answer.matched }) });
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose(true);
    },
  });
  const error = save.error;
  return (
    <FormFrame onSubmit={() => save.mutate()} testId="asset-bulk-form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('assets.bulk.intro')}
        </Text>
        <Select
          label={t('assets.fields.criticality')}
          placeholder={t('assets.bulk.unchanged')}
          data={assetCriticalityValues.map((value) => ({ value, label: labels.criticality[value] }))}
          value={criticality}
          onChange={setCriticality}
          clearable
          error={fieldError(error, 'criticality')}
          comboboxProps={{ withinPortal: true }}
          data-testid="asset-bulk-criticality"
        />
        {companies.length === 1 ? (
          <OwnerSelect
            value={owner}
            onChange={setOwner}
            companyId={companies[0]}
            error={fieldError(error, 'ownerEmployeeId')}
            placeholder={t('assets.bulk.unchanged')}
          />
        ) : (
          <Text size="xs" c="dimmed">
            {t('assets.bulk.ownerOneCompany')}
          </Text>
        )}
        <TagsInput
          label={t('assets.bulk.addTags')}
          placeholder={t('assets.bulk.tagsPlaceholder')}
          value={addTags}
          onChange={setAddTags}
          error={fieldError(error, 'addTags')}
          data-testid="asset-bulk-add-tags"
        />
        <TagsInput
          label={t('assets.bulk.removeTags')}
          placeholder={t('assets.bulk.tagsPlaceholder')}
          value={removeTags}
          onChange={setRemoveTags}
          data={[...new Set(assets.flatMap((a) => a.tags))]}
          error={fieldError(error, 'removeTags')}
          data-testid="asset-bulk-remove-tags"
        />
        <FormError error={save.error} shownFields={bulkFields} />
      </Stack>
      <FormActions
        onCancel={() => onClose(false)}
        submitLabel={t('assets.bulk.apply')}
        loading={save.isPending}
        disabled={nothing}
        submitTestId="asset-bulk-submit"
      />
    </FormFrame>
  );
}
