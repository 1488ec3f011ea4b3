import './csv-import.css';
import { Alert, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { notify } from '../../lib/notifications';
import { useSignedInUser } from '../../lib/session';
import { CompanySelect } from './company-select';
import { DropZone } from './drop-zone';
import { FormError } from './form-error';
import { FormActions, FormFrame } from './form-frame';

/** What a CSV import answers: counts, and the rows refused with their line, column and reason. */
export interface CsvImportAnswer {
  created: number;
  updated: number;
  rejected: readonly { row: number; field: string; reason: string }[];
}

/** The server's limit on an import body. */
const MAX_BYTES = 64 * 1024 * 1024;
/** Refused rows listed in the dialog; the rest are counted. */
const ROWS_SHOWN = 200;

export interface CsvImportProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  intro: ReactNode;
  /** Sends the file's text into the company chosen. */
  run: (csv: string, companyId: number) => Promise<CsvImportAnswer>;
  /** Queries to refresh after an import. */
  invalidate: QueryKey;
  /** The notice when every row went in. */
  done: (answer: CsvImportAnswer) => string;
  /** Prefix of the dialog's test ids (`<prefix>`, `-file`, `-submit`, `-report`, `-rejection`). */
  testId: string;
}

/** A CSV file picked or dropped, imported into a company; refused rows listed with their reason. */
export function CsvImportModal(props: CsvImportProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={700}>{props.title}</Text>}
      centered
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {props.opened && <ImportForm {...props} />}
    </Modal>
  );
}

function ImportForm({ onClose, intro, run: send, invalidate, done, testId }: CsvImportProps) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [companyId, setCompanyId] = useState(me.companyId);
  const run = useMutation({
    mutationFn: async () => send(await file!.text(), companyId),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: invalidate });
      if (answer.rejected.length === 0) {
        notify({ type: 'success', message: done(answer) });
        onClose();
      }
    },
  });
  const choose = (chosen: File | undefined) => {
    run.reset();
    if (!chosen) return;
    if (!/\.(csv|txt)$/i.test(chosen.name)) {
      setProblem(t('list.csvImport.notCsv'));
      setFile(null);
    } else if (chosen.size > MAX_BYTES) {
      setProblem(t('list.csvImport.tooLarge'));
      setFile(null);
    } else {
      setProblem(null);
      setFile(chosen);
    }
  };

  return (
    <FormFrame onSubmit={() => file && run.mutate()} testId={testId}>
      <Text size="sm">{intro}</Text>
      <CompanySelect value={companyId} onChange={setCompanyId} />
      <DropZone
        label={file ? t('list.csvImport.chosen', { name: file.name }) : t('list.csvImport.drop')}
        accept=".csv,.txt,text/csv,text/plain"
        onFiles={(files) => choose(files[0])}
        testId={`${testId}-drop`}
        inputTestId={`${testId}-file`}
      />
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {run.data && <ImportReport answer={run.data} testId={testId} />}
      <FormError error={run.error} />
      <FormActions
        onCancel={onClose}
        submitLabel={t('list.csvImport.run')}
        loading={run.isPending}
        disabled={file === null}
        submitTestId={`${testId}-submit`}
      />
    </FormFrame>
  );
}

function ImportReport({ answer, testId }: { answer: CsvImportAnswer; testId: string }) {
  const { t } = useTranslation();
  const shown = answer.rejected.slice(0, ROWS_SHOWN);
  return (
    <Stack gap="xs" data-testid={`${testId}-report`}>
      <Alert color={answer.rejected.length > 0 ? 'yellow' : 'teal'} variant="light">
        {t('list.csvImport.result', {
          created: answer.created,
          updated: answer.updated,
          rejected: answer.rejected.length,
        })}
      </Alert>
      {shown.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {t('list.csvImport.rejectedTitle')}
          </Text>
          <div className="vigil-import-rejections">
            <Table striped withTableBorder stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('list.csvImport.row')}</Table.Th>
                  <Table.Th w={140}>{t('list.csvImport.field')}</Table.Th>
                  <Table.Th>{t('list.csvImport.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((rejection, index) => (
                  <Table.Tr key={`${rejection.row}-${index}`} data-testid={`${testId}-rejection`}>
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
              {t('list.csvImport.more', { count: answer.rejected.length - shown.length })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
