import { Alert, Checkbox, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormActions, FormError, FormFrame, fieldProblem } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { assetKeys, splitAsset, type Asset } from '../api/assets';
import { sourceText, useAssetLabels } from './asset-cells';

/** Split: the chosen addresses, MACs and sources leave the asset for a new one of the given name. */
export function SplitModal({
  asset,
  opened,
  onClose,
}: {
  asset: Asset;
  opened: boolean;
  onClose: (created?: Asset) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={() => onClose()}
      title={<Text fw={700}>{t('assets.split.title', { name: asset.name })}</Text>}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <SplitForm asset={asset} onClose={onClose} />}
    </Modal>
  );
}

function SplitForm({ asset, onClose }: { asset: Asset; onClose: (created?: Asset) => void }) {
  const { t, i18n } = useTranslation();
  const labels = useAssetLabels();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [ips, setIps] = useState<string[]>([]);
  const [macs, setMacs] = useState<string[]>([]);
  const [sources, setSources] = useState<string[]>([]);
  const nothing = ips.length + macs.length + sources.length === 0;
  const split = useMutation({
    mutationFn: () => splitAsset(asset.id, { name, ips, macs, sources }),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('assets.split.done', { name: answer.created.name }) });
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose(answer.created);
    },
  });
  const group = (
    label: string,
    values: readonly string[],
    chosen: string[],
    choose: (next: string[]) => void,
    text = (v: string) => v,
  ) =>
    values.length > 0 && (
      <Checkbox.Group label={label} value={chosen} onChange={choose}>
        <Stack gap={4} mt={4}>
          {values.map((value) => (
            <Checkbox key={value} value={value} label={text(value)} data-testid="asset-split-choice" />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  return (
    <FormFrame onSubmit={() => !nothing && split.mutate()} testId="asset-split">
      <Text size="sm">{t('assets.split.intro')}</Text>
      <TextInput
        label={t('assets.split.name')}
        required
        maxLength={255}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldProblem(split.error, 'name', i18n.language, () => t('assets.errors.name'))}
        data-autofocus
        data-testid="asset-split-name"
      />
      {group(t('assets.split.ips'), asset.ips, ips, setIps)}
      {group(t('assets.split.macs'), asset.macs, macs, setMacs)}
      {group(t('assets.split.sources'), asset.sources, sources, setSources, (s) => sourceText(s, labels))}
      {nothing && (
        <Alert color="gray" variant="light">
          {t('assets.split.nothing')}
        </Alert>
      )}
      <FormError error={split.error} shownFields={['name']} />
      <FormActions
        onCancel={() => onClose()}
        submitLabel={t('assets.split.run')}
        loading={split.isPending}
        disabled={nothing}
        submitTestId="asset-split-submit"
      />
    </FormFrame>
  );
}
