import { Alert, Loader, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MAX_RULE_FILE_BYTES, MAX_RULE_IMPORT_BYTES } from '@vigil/contract/client';
import { useState } from 'react';
import { DropZone } from '../../../components/form/drop-zone';
import { FormError, fieldError } from '../../../components/form/form-error';
import { FormActions, FormFrame } from '../../../components/form/form-frame';
import { formatBytes } from '../../../lib/bytes';
import { ApiError, isAboutField } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import { importFields, importRules, ruleKeys, type RuleKind } from '../api/rules';
import { readRuleFiles, RULE_FILE_ACCEPT, type RuleFilesProblem, type RuleFilesRead } from '../lib/rule-files';

/** Rejected rules listed in the dialog; the rest are counted. */
const ROWS_SHOWN = 200;
/** The rule files each kind is usually written in, as the dialog names them. */
const extensions: Record<RuleKind, string> = {
  suricata: '.rules, .txt',
  sigma: '.yml, .yaml',
  yara: '.yar, .yara, .txt',
};
/** The archives the dialog unpacks, as it names them. */
const ARCHIVES = '.zip, .tar.gz, .tgz, .tar';
/** The company choice meaning "rules for all companies". */
const ALL = 'all';

/** Rule files or archives of them, picked or dropped, unpacked here and imported; the answer listed. */
export function RuleImportModal({ kind, opened, onClose }: { kind: RuleKind; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>{t('rules.import.title', { kind: t(`rules.kinds.${kind}.title`) })}</Text>}
      centered
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <ImportForm kind={kind} onClose={onClose} />}
    </Modal>
  );
}

function ImportForm({ kind, onClose }: { kind: RuleKind; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<File[]>([]);
  const [read, setRead] = useState<RuleFilesRead | null>(null);
  const [reading, setReading] = useState(false);
  const [company, setCompany] = useState<string>(me.allCompanies ? ALL : String(me.companyId));
  const [licence, setLicence] = useState('');
  const run = useMutation({
    mutationFn: () =>
      importRules(kind, {
        files: read?.files ?? [],
        ...(company === ALL ? {} : { companyId: Number(company) }),
        ...(licence.trim() ? { licence: licence.trim() } : {}),
      }),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ruleKeys.all(kind) });
      if (kind === 'yara') await queryClient.invalidateQueries({ queryKey: ruleKeys.scan });
      // The dialog shows the whole answer; a notice says it too when something was stored and nothing refused.
      if (answer.rejected.length === 0 && answer.created + answer.updated > 0) {
        notify({ type: 'success', message: t('rules.import.done', answer) });
      }
    },
  });
  const choose = async (files: File[]) => {
    run.reset();
    if (files.length === 0) return;
    setPicked(files);
    setRead(null);
    setReading(true);
    try {
      setRead(await readRuleFiles(files, { file: MAX_RULE_FILE_BYTES, total: MAX_RULE_IMPORT_BYTES }));
    } finally {
      setReading(false);
    }
  };
  const fileProblems =
    run.error instanceof ApiError
      ? Object.entries(run.error.fieldErrors)
          .filter(([field]) => isAboutField(field, 'files'))
          .flatMap(([, problems]) => problems)
      : [];
  const companies = [
    ...(me.allCompanies ? [{ value: ALL, label: t('rules.scopeAll') }] : []),
    ...me.companies.map((one) => ({ value: String(one.id), label: one.name })),
  ];
  const names = picked.map((file) => file.name).join(', ');

  return (
    <FormFrame onSubmit={() => read?.problem === null && run.mutate()} testId="rule-import">
      <Text size="sm">{t('rules.import.intro', { extensions: extensions[kind], archives: ARCHIVES })}</Text>
      {companies.length > 1 && (
        <Select
          label={t('rules.fields.scope')}
          data={companies}
          value={company}
          onChange={(next) => next !== null && setCompany(next)}
          searchable
          allowDeselect={false}
          error={fieldError(run.error, 'companyId')}
          comboboxProps={{ withinPortal: true }}
          data-testid="rule-import-company"
        />
      )}
      <TextInput
        label={t('rules.import.licence')}
        description={t('rules.import.licenceHint')}
        placeholder={kind === 'sigma' ? 'DRL-1.1' : undefined}
        maxLength={100}
        value={licence}
        onChange={(event) => setLicence(event.currentTarget.value)}
        error={fieldError(run.error, 'licence')}
        data-testid="rule-import-licence"
      />
      <DropZone
        label={picked.length > 0 ? t('rules.import.chosen', { count: picked.length, names }) : t('rules.import.drop')}
        accept={RULE_FILE_ACCEPT}
        multiple
        onFiles={(files) => void choose(files)}
        testId="rule-import-drop"
        inputTestId="rule-import-file"
      />
      {reading && (
        <Text size="sm" c="dimmed">
          <Loader size="xs" mr="xs" />
          {t('rules.import.reading')}
        </Text>
      )}
      {read && <ReadSummary read={read} kind={kind} />}
      {fileProblems.length > 0 && (
        <Alert color="red" variant="light" role="alert" data-testid="rule-import-file-errors">
          {fileProblems.map((problem) => (
            <div key={problem}>{problem}</div>
          ))}
        </Alert>
      )}
      {run.data && <ImportReport answer={run.data} />}
      <FormError error={run.error} shownFields={importFields} />
      <FormActions
        onCancel={onClose}
        submitLabel={t('rules.import.run')}
        loading={run.isPending}
        disabled={read === null || read.problem !== null}
        submitTestId="rule-import-submit"
      />
    </FormFrame>
  );
}

/** What was read from the chosen files: how many rule files and how large, or why nothing can be sent. */
function ReadSummary({ read, kind }: { read: RuleFilesRead; kind: RuleKind }) {
  const { t, i18n } = useTranslation();
  const skipped = read.skipped > 0 && (
    <Text size="sm" c="dimmed" data-testid="rule-import-skipped">
      {t('rules.import.skipped', { count: read.skipped })}
    </Text>
  );
  if (read.problem) {
    return (
      <Stack gap={4}>
        <Alert color="red" variant="light" role="alert" data-testid="rule-import-problem">
          {problemText(read.problem, kind, t, i18n.language)}
        </Alert>
        {skipped}
      </Stack>
    );
  }
  const bytes = read.files.reduce((sum, file) => sum + new TextEncoder().encode(file.content).length, 0);
  return (
    <Stack gap={4}>
      <Text size="sm" data-testid="rule-import-ready">
        {t('rules.import.ready', { count: read.files.length, size: formatBytes(bytes, i18n.language) })}
      </Text>
      {skipped}
    </Stack>
  );
}

function problemText(
  problem: RuleFilesProblem,
  kind: RuleKind,
  t: ReturnType<typeof useTranslation>['t'],
  language: string,
): string {
  const size = (bytes: number) => formatBytes(bytes, language);
  const fileLimit = size(MAX_RULE_FILE_BYTES);
  const importLimit = size(MAX_RULE_IMPORT_BYTES);
  switch (problem.kind) {
    case 'fileTooLarge':
      return t('rules.import.problems.fileTooLarge', {
        name: problem.name,
        size: size(problem.bytes),
        limit: fileLimit,
      });
    case 'importTooLarge':
      return t('rules.import.problems.importTooLarge', { size: size(problem.bytes), limit: importLimit });
    case 'archiveTooLarge':
      return t('rules.import.problems.archiveTooLarge', { name: problem.name, limit: importLimit });
    case 'unreadable':
      return t('rules.import.problems.unreadable', { name: problem.name, archives: ARCHIVES });
    case 'notText':
      return t('rules.import.problems.notText', { name: problem.name });
    case 'noRuleFiles':
      return t('rules.import.problems.noRuleFiles', { extensions: extensions[kind] });
  }
}

function ImportReport({ answer }: { answer: Awaited<ReturnType<typeof importRules>> }) {
  const { t } = useTranslation();
  const shown = answer.rejected.slice(0, ROWS_SHOWN);
  return (
    <Stack gap="xs" data-testid="rule-import-report">
      <Alert color={answer.rejected.length > 0 ? 'yellow' : 'teal'} variant="light">
        {t('rules.import.result', { ...answer, rejected: answer.rejected.length })}
      </Alert>
      {shown.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {t('rules.import.rejectedTitle')}
          </Text>
          <div className="vigil-rule-rejections">
            <Table striped withTableBorder stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={180}>{t('rules.import.rejectedFile')}</Table.Th>
                  <Table.Th w={70}>{t('rules.import.rejectedLine')}</Table.Th>
                  <Table.Th w={150}>{t('rules.import.rejectedRule')}</Table.Th>
                  <Table.Th>{t('rules.import.rejectedReason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((rejection, index) => (
                  <Table.Tr key={`${rejection.file}-${rejection.line}-${index}`} data-testid="rule-import-rejection">
                    <Table.Td className="vigil-cell-mono vigil-rule-break">{rejection.file}</Table.Td>
                    <Table.Td className="vigil-cell-mono">{rejection.line}</Table.Td>
                    <Table.Td className="vigil-cell-mono vigil-rule-break">{rejection.rule || '—'}</Table.Td>
                    <Table.Td>{rejection.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {answer.rejected.length > shown.length && (
            <Text size="sm" c="dimmed">
              {t('rules.import.more', { count: answer.rejected.length - shown.length })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
