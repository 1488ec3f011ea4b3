import { Alert, Modal, Radio, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormActions, FormError, FormFrame } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { assetKeys, mergeAssets, type Asset } from '../api/assets';

/** Merge of the selected assets into the one the user keeps (all of one company). */
export function MergeModal({ assets, onClose }: { assets: readonly Asset[]; onClose: (merged?: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={assets.length > 0}
      onClose={() => onClose()}
      title={<Text fw={700}>{t('assets.merge.title')}</Text>}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {assets.length > 0 && <MergeForm assets={assets} onClose={onClose} />}
    </Modal>
  );
}

function MergeForm({ assets, onClose }: { assets: readonly Asset[]; onClose: (merged?: boolean) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The asset seen most recently is the likeliest to keep.
  const newest = [...assets].sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''))[0]!;
  const [into, setInto] = useState(String(newest.id));
  const oneCompany = new Set(assets.map((asset) => asset.companyId)).size === 1;
  const merge = useMutation({
    mutationFn: () =>
      mergeAssets(
        Number(into),
        assets.filter((asset) => asset.id !== Number(into)).map((asset) => asset.id),
      ),
    onSuccess: async (kept) => {
      notify({ type: 'success', message: t('assets.merge.done', { name: kept.name }) });
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose(true);
    },
  });
  return (
    <FormFrame onSubmit={() => merge.mutate()} testId="asset-merge">
      <Text size="sm">{t('assets.merge.intro')}</Text>
      {!oneCompany && (
        <Alert color="red" variant="light" role="alert">
          {t('assets.merge.sameCompany')}
        </Alert>
      )}
      <Radio.Group value={into} onChange={setInto} label={t('assets.merge.into')}>
        <Stack gap="xs" mt="xs">
          {assets.map((asset) => (
            <Radio
              key={asset.id}
              value={String(asset.id)}
              label={asset.name}
              description={[asset.fqdn, asset.ips.join(', ')].filter(Boolean).join(' · ') || undefined}
              data-testid="asset-merge-into"
            />
          ))}
        </Stack>
      </Radio.Group>
      <FormError error={merge.error} />
      <FormActions
        onCancel={() => onClose()}
        submitLabel={t('assets.merge.run')}
        loading={merge.isPending}
        disabled={!oneCompany}
        submitTestId="asset-merge-submit"
      />
    </FormFrame>
  );
}
