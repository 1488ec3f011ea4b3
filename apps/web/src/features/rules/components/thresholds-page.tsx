import './rules.css';
import { Button, Modal, Select, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SuricataThreshold as ThresholdWire } from '@vigil/contract';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import { FormError, fieldError } from '../../../components/form/form-error';
import { FormActions, FormFrame } from '../../../components/form/form-frame';
import {
  companyColumn,
  dateColumn,
  deleteColumn,
  ListPage,
  noValue,
  presentColumns,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import {
  createThreshold,
  deleteThreshold,
  ruleKeys,
  thresholdFields,
  thresholdList,
  updateThreshold,
  type SuricataThreshold,
} from '../api/rules';
import { SuricataTabs } from './rule-kind';

type Filters = typeof thresholdList.filters;
/** The kinds of threshold.config lines, and one for the form's hint (the syntax is the same in every language). */
const ENTRY_KINDS = 'suppress, threshold, event_filter, rate_filter';
const ENTRY_EXAMPLE = 'suppress gen_id 1, sig_id 2010935, track by_src, ip 10.0.0.5';

/** Settings → Suricata signatures → threshold.config: the company's entries; add, change, delete. */
export default function ThresholdsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const mayAdd = usePermission({ action: 'add', subject: 'rules/suricata' });
  const mayChange = usePermission({ action: 'change', subject: 'rules/suricata' });
  const mayDelete = usePermission({ action: 'delete', subject: 'rules/suricata' });
  const model = usePagedListPage<ThresholdWire, Filters>(thresholdList);
  const [editing, setEditing] = useState<SuricataThreshold | null | undefined>(undefined);
  const removal = useRowDelete<SuricataThreshold>({
    remove: deleteThreshold,
    invalidate: [ruleKeys.thresholds],
    title: t('rules.thresholds.delete'),
    question: (row) => t('rules.thresholds.deleteConfirm', { entry: row.entry }),
    deleted: () => t('rules.thresholds.deleted'),
  });
  const ask = removal.ask;

  const filters: FilterField<Filters>[] = [
    {
      kind: 'search',
      name: 'search',
      label: t('common.search'),
      placeholder: t('rules.thresholds.searchPlaceholder'),
    },
  ];
  const columns = useMemo(() => {
    const company = companyColumn<SuricataThreshold>(t('rules.thresholds.company'), me.companies, '150px');
    return presentColumns<SuricataThreshold>([
      {
        id: 'entry',
        header: t('rules.thresholds.entry'),
        width: 'minmax(260px, 3fr)',
        render: (row) => (
          <span className="vigil-cell-mono vigil-rule-cut" title={row.entry} data-testid="threshold-entry">
            {row.entry}
          </span>
        ),
      },
      {
        id: 'comment',
        header: t('rules.thresholds.comment'),
        width: 'minmax(140px, 2fr)',
        render: (row) =>
          row.comment ? (
            <span className="vigil-rule-cut" title={row.comment}>
              {row.comment}
            </span>
          ) : (
            noValue
          ),
      },
      company,
      dateColumn<SuricataThreshold>('createdAt', t('rules.thresholds.created'), (row) => row.createdAt, {
        sortField: 'created_at',
      }),
      deleteColumn<SuricataThreshold>({ header: t('common.actions'), delete: t('common.delete') }, mayDelete, ask, {
        iconOnly: true,
      }),
    ] satisfies (Column<SuricataThreshold> | null | false)[]);
  }, [t, me.companies, mayDelete, ask]);
  const rowLabel = useCallback((row: SuricataThreshold) => row.entry, []);
  const filtered = Object.keys(model.list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t('rules.kinds.suricata.title')}
      subtitle={t('rules.thresholds.intro', { kinds: ENTRY_KINDS })}
      actions={
        mayAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="threshold-add">
            {t('rules.thresholds.add')}
          </Button>
        )
      }
      above={<SuricataTabs active="thresholds" />}
      filters={filters}
      table={{
        columns,
        label: t('rules.thresholds.title'),
        testId: 'thresholds-table',
        rowTestId: 'threshold-row',
        rowLabel,
        onRowClick: (row) => mayChange && setEditing(row),
        empty: filtered ? t('rules.thresholds.nothingMatches') : t('rules.thresholds.empty'),
        loadFailed: t('rules.thresholds.loadFailed'),
      }}
      footerTestId="thresholds"
    >
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={<Text fw={700}>{editing ? t('rules.thresholds.editTitle') : t('rules.thresholds.newTitle')}</Text>}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing !== undefined && (
          <ThresholdForm key={editing?.id ?? 'new'} entry={editing} onClose={() => setEditing(undefined)} />
        )}
      </Modal>
      {removal.dialog}
    </ListPage>
  );
}

function ThresholdForm({ entry, onClose }: { entry: SuricataThreshold | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [text, setText] = useState(entry?.entry ?? '');
  const [comment, setComment] = useState(entry?.comment ?? '');
  const [companyId, setCompanyId] = useState(me.companyId);
  const save = useMutation({
    mutationFn: () =>
      entry
        ? updateThreshold(entry.id, { entry: text, comment })
        : createThreshold({ entry: text, comment, ...(me.companies.length > 1 ? { companyId } : {}) }),
    onSuccess: async () => {
      notify({ type: 'success', message: entry ? t('rules.thresholds.saved') : t('rules.thresholds.added') });
      await queryClient.invalidateQueries({ queryKey: ruleKeys.thresholds });
      onClose();
    },
  });
  return (
    <FormFrame onSubmit={() => save.mutate()} testId="threshold-form">
      {!entry && me.companies.length > 1 && (
        <Select<number>
          label={t('rules.thresholds.company')}
          data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
          value={companyId}
          onChange={(next) => next !== null && setCompanyId(next)}
          searchable
          allowDeselect={false}
          error={fieldError(save.error, 'companyId')}
          comboboxProps={{ withinPortal: true }}
          data-testid="threshold-company"
        />
      )}
      <Textarea
        label={t('rules.thresholds.entry')}
        description={t('rules.thresholds.entryHint', { example: ENTRY_EXAMPLE })}
        required
        autosize
        minRows={2}
        maxLength={4000}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        error={fieldError(save.error, 'entry')}
        classNames={{ input: 'vigil-rule-test__code' }}
        data-autofocus
        data-testid="threshold-entry-input"
      />
      <TextInput
        label={t('rules.thresholds.comment')}
        maxLength={1000}
        value={comment}
        onChange={(event) => setComment(event.currentTarget.value)}
        error={fieldError(save.error, 'comment')}
        data-testid="threshold-comment"
      />
      <FormError error={save.error} shownFields={thresholdFields} />
      <FormActions
        onCancel={onClose}
        submitLabel={t('common.save')}
        loading={save.isPending}
        submitTestId="threshold-submit"
      />
    </FormFrame>
  );
}
