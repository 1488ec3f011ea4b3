import './csv-import.css';
import { Alert, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { CsvImportAnswer } from '@vigil/contract';
import { useTranslation } from '../../lib/i18n';
import { notify } from '../../lib/notifications';
import { useSignedInUser } from '../../lib/session';
import { checkCsvFile, IMPORT_ROWS_SHOWN } from './csv-file';
import { CompanySelect } from './company-select';
import { DropZone } from './drop-zone';
import { FormError } from './form-error';
import { FormActions, FormFrame } from './form-frame';

type Rejection = CsvImportAnswer['rejected'][number];
export type Answer = { created: number; updated: number; rejected: readonly Rejection[] };

/** The texts of a CSV import dialog, in the interface language. */
export interface CsvImportTexts<A extends Answer = Answer> {
  title: string;
  intro: ReactNode;
  drop: string;
  chosen: (name: string) => string;
  notCsv: string;
  tooLarge: string;
  run: string;
  /** What the import did, above the refused rows. */
  result: (answer: A) => string;
  /** The notification when every row went in (the dialog then closes). */
  done: (answer: A) => string;
  rejectedTitle: string;
  row: string;
  field: string;
  reason: string;
  more: (count: number) => string;
  /**
   * A refused row's reason in the interface language, when the console has words for it (the
   * server's reason is English and stays as the cell's tooltip); undefined keeps the server's.
   */
  reasonOf?: (rejection: { field: string; reason: string }) => string | undefined;
}

/**
 * A CSV file, picked or dropped, imported into a company by `run`; when rows were refused the
 * dialog stays open and lists them (row, field, reason). `testId` prefixes every test id.
 */
export function CsvImportModal<A extends Answer>({
  opened,
  onClose,
  texts,
  run,
  invalidate,
  testId,
}: {
  opened: boolean;
  onClose: () => void;
  texts: CsvImportTexts<A>;
  run: (csv: string, companyId: number) => Promise<A>;
  invalidate: QueryKey;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{texts.title}</Text>}
      centered
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <ImportForm onClose={onClose} texts={texts} run={run} invalidate={invalidate} testId={testId} />}
    </Modal>
  );
}

function ImportForm<A extends Answer>({
  onClose,
  texts,
  run,
  invalidate,
  testId,
}: {
  onClose: () => void;
  texts: CsvImportTexts<A>;
  run: (csv: string, companyId: number) => Promise<A>;
  invalidate: QueryKey;
  testId: string;
}) {
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [companyId, setCompanyId] = useState(me.companyId);
  const importing = useMutation({
    mutationFn: async () => run(await file!.text(), companyId),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: invalidate });
      if (answer.rejected.length === 0) {
        notify({ type: 'success', message: texts.done(answer) });
        onClose();
      }
    },
  });
  const choose = (chosen: File | undefined) => {
    importing.reset();
    if (!chosen) return;
    const refused = checkCsvFile(chosen);
    setProblem(refused && texts[refused]);
    setFile(refused ? null : chosen);
  };

  return (
    <FormFrame onSubmit={() => file && importing.mutate()} testId={testId}>
      <Text size="sm">{texts.intro}</Text>
      <CompanySelect value={companyId} onChange={setCompanyId} />
      <DropZone
        label={file ? texts.chosen(file.name) : texts.drop}
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
      {importing.data && <ImportReport answer={importing.data} texts={texts} testId={testId} />}
      <FormError error={importing.error} />
      <FormActions
        onCancel={onClose}
        submitLabel={texts.run}
        loading={importing.isPending}
        disabled={file === null}
        submitTestId={`${testId}-submit`}
      />
    </FormFrame>
  );
}

function ImportReport<A extends Answer>({
  answer,
  texts,
  testId,
}: {
  answer: A;
  texts: CsvImportTexts<A>;
  testId: string;
}) {
  const shown = answer.rejected.slice(0, IMPORT_ROWS_SHOWN);
  return (
    <Stack gap="xs" data-testid={`${testId}-report`}>
      <Alert color={answer.rejected.length > 0 ? 'yellow' : 'teal'} variant="light">
        {texts.result(answer)}
      </Alert>
      {shown.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {texts.rejectedTitle}
          </Text>
          <div className="vigil-import-rejections">
            <Table striped withTableBorder stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{texts.row}</Table.Th>
                  <Table.Th w={140}>{texts.field}</Table.Th>
                  <Table.Th>{texts.reason}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((rejection, index) => {
                  const own = texts.reasonOf?.(rejection);
                  return (
                    <Table.Tr key={`${rejection.row}-${index}`} data-testid={`${testId}-rejection`}>
                      <Table.Td className="vigil-cell-mono">{rejection.row}</Table.Td>
                      <Table.Td className="vigil-cell-mono">{rejection.field}</Table.Td>
                      <Table.Td title={own === undefined ? undefined : rejection.reason}>
                        {own ?? rejection.reason}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
          {answer.rejected.length > shown.length && (
            <Text size="sm" c="dimmed">
              {texts.more(answer.rejected.length - shown.length)}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
