import { Alert, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { assetCsvColumnValues } from '@vigil/contract/client';
import { useState } from 'react';
import { CompanySelect, DropZone, FormActions, FormError, FormFrame } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import { importAssets, assetKeys, type ImportAnswer } from '../api/assets';

/** The server's limit on an import body. */
const MAX_BYTES = 64 * 1024 * 1024;
/** Refused rows listed in the dialog; the rest are counted. */
const ROWS_SHOWN = 200;

/** A CSV file of assets, picked or dropped, imported into a company; refused rows listed with their reason. */
export function AssetImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('assets.import.title')}</Text>}
      centered
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <ImportForm onClose={onClose} />}
    </Modal>
  );
}

function ImportForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [companyId, setCompanyId] = useState(me.companyId);
  const run = useMutation({
    mutationFn: async () => importAssets(await file!.text(), companyId),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
      if (answer.rejected.length === 0) {
        notify({ type: 'success', message: t('assets.import.done', answer) });
        onClose();
      }
    },
  });
  const choose = (chosen: File | undefined) => {
    run.reset();
    if (!chosen) return;
    if (!/\.(csv|txt)$/i.test(chosen.name)) {
      setProblem(t('assets.import.notCsv'));
      setFile(null);
    } else if (chosen.size > MAX_BYTES) {
      setProblem(t('assets.import.tooLarge'));
      setFile(null);
    } else {
      setProblem(null);
      setFile(chosen);
    }
  };

  return (
    <FormFrame onSubmit={() => file && run.mutate()} testId="asset-import">
      <Text size="sm">
        {t('assets.import.intro', { columns: assetCsvColumnValues.join(', '), required: assetCsvColumnValues[0] })}
      </Text>
      <CompanySelect value={companyId} onChange={setCompanyId} />
      <DropZone
        label={file ? t('assets.import.chosen', { name: file.name }) : t('assets.import.drop')}
        accept=".csv,.txt,text/csv,text/plain"
        onFiles={(files) => choose(files[0])}
        testId="asset-import-drop"
        inputTestId="asset-import-file"
      />
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {run.data && <ImportReport answer={run.data} />}
      <FormError error={run.error} />
      <FormActions
        onCancel={onClose}
        submitLabel={t('assets.import.run')}
        loading={run.isPending}
        disabled={file === null}
        submitTestId="asset-import-submit"
      />
    </FormFrame>
  );
}

function ImportReport({ answer }: { answer: ImportAnswer }) {
  const { t } = useTranslation();
  const shown = answer.rejected.slice(0, ROWS_SHOWN);
  return (
    <Stack gap="xs" data-testid="asset-import-report">
      <Alert color={answer.rejected.length > 0 ? 'yellow' : 'teal'} variant="light">
        {t('assets.import.result', {
          created: answer.created,
          updated: answer.updated,
          rejected: answer.rejected.length,
        })}
      </Alert>
      {shown.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {t('assets.import.rejectedTitle')}
          </Text>
          <div className="vigil-import-rejections">
            <Table striped withTableBorder stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('assets.import.row')}</Table.Th>
                  <Table.Th w={140}>{t('assets.import.field')}</Table.Th>
                  <Table.Th>{t('assets.import.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((rejection, index) => (
                  <Table.Tr key={`${rejection.row}-${index}`} data-testid="asset-import-rejection">
                    <Table.Td className="vigil-cell-mono">{rejection.row}</Table.Td>
                    <Table.Td className="vigil-cell-mono">{rejection.field}</Table.Td>
                    <Table.Td>{rejection.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {answer.rejected.length > shown.length && (
            <Text size="sm" c="dimmed">
              {t('assets.import.more', { count: answer.rejected.length - shown.length })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
