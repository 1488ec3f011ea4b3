import { Alert, Modal, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CompanySelect, FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import { assetKeys, fetchNetworks, saveNetworks } from '../api/assets';
import { readCidrLines } from '../lib/asset-values';

/** The company's internal networks, one CIDR a line, checked as typed and saved with PUT. */
export function NetworksModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const [companyId, setCompanyId] = useState(me.companyId);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('assets.networks.title')}</Text>}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && (
        <>
          {me.companies.length > 1 && <CompanySelect value={companyId} onChange={setCompanyId} />}
          <NetworksForm key={companyId} companyId={companyId} onClose={onClose} />
        </>
      )}
    </Modal>
  );
}

function NetworksForm({ companyId, onClose }: { companyId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, error } = useQuery({
    queryKey: assetKeys.networks(companyId),
    queryFn: ({ signal }) => fetchNetworks(companyId, signal),
  });
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? data?.cidrs.join('\n') ?? '';
  const read = readCidrLines(shown);
  const save = useMutation({
    mutationFn: () => saveNetworks(companyId, read.cidrs),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('assets.networks.saved', { count: answer.cidrs.length }) });
      await queryClient.invalidateQueries({ queryKey: assetKeys.networks(companyId) });
      onClose();
    },
  });
  const problem =
    read.bad.length > 0
      ? read.bad
          .slice(0, 3)
          .map((bad) => t('assets.networks.bad', { line: bad.line, text: bad.text }))
          .join('\n')
      : fieldError(save.error, 'cidrs');
  return (
    <FormFrame onSubmit={() => read.bad.length === 0 && save.mutate()} testId="asset-networks">
      <Text size="sm">{t('assets.networks.intro', { examples: '10.0.0.0/8, 2001:db8::/32' })}</Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {t('assets.networks.loadFailed')}
        </Alert>
      )}
      <Textarea
        label={t('assets.networks.label')}
        description={t('assets.networks.count', { count: read.cidrs.length })}
        autosize
        minRows={6}
        maxRows={16}
        value={shown}
        onChange={(event) => setText(event.currentTarget.value)}
        error={problem}
        disabled={!data && !error}
        classNames={{ input: 'vigil-cell-mono', error: 'vigil-asset-networks-error' }}
        data-testid="asset-networks-text"
      />
      <FormError error={save.error} shownFields={['cidrs']} />
      <FormActions
        onCancel={onClose}
        submitLabel={t('common.save')}
        loading={save.isPending}
        disabled={read.bad.length > 0 || !data}
        submitTestId="asset-networks-submit"
      />
    </FormFrame>
  );
}
