import './indicators.css';
import { Button, Group, Modal, Text } from '@mantine/core';
import { IconDownload, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSeverityValues } from '@vigil/contract/client';
import type { Indicator as IndicatorWire } from '@vigil/contract';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import {
  companyColumn,
  dateColumn,
  deleteColumn,
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { severityPill, useTriageLabels } from '../../triage';
import {
  deleteIndicator,
  deleteIndicators,
  indicatorExportUrl,
  indicatorKeys,
  indicatorList,
  type Indicator,
} from '../api/indicators';
import { IndicatorForm } from './indicator-form';
import { IndicatorImportModal } from './indicator-import';
import { indicatorTypeValues } from './indicator-values';

type Filters = typeof indicatorList.filters;

/** Settings → Policy indicators: filters in the URL; create, edit, delete one or many, CSV import and export. */
export default function IndicatorsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const labels = useTriageLabels();
  const queryClient = useQueryClient();
  const mayAdd = usePermission({ action: 'add', subject: 'indicators' });
  const mayChange = usePermission({ action: 'change', subject: 'indicators' });
  const mayDelete = usePermission({ action: 'delete', subject: 'indicators' });
  const mayImport = usePermission({ action: 'import', subject: 'indicators' });
  const mayExport = usePermission({ action: 'export', subject: 'indicators' });
  const model = usePagedListPage<IndicatorWire, Filters>(indicatorList, { selectable: mayDelete });
  const { list, selection } = model;
  const [editing, setEditing] = useState<Indicator | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [bulkAsked, setBulkAsked] = useState(false);
  const removal = useRowDelete<Indicator>({
    remove: deleteIndicator,
    invalidate: [indicatorKeys.all],
    title: t('indicators.delete'),
    question: (row) => t('indicators.deleteConfirm', { value: row.value }),
    deleted: (row) => t('indicators.deleted', { value: row.value }),
  });
  const ask = removal.ask;
  const selectedIds = () => model.rows.filter((row) => selection.has(row.id)).map((row) => row.id);
  const bulk = useMutation({
    mutationFn: () => deleteIndicators(selectedIds()),
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('indicators.bulkDeleted', { count: answer.deleted }) });
      setBulkAsked(false);
      selection.clear();
      await queryClient.invalidateQueries({ queryKey: indicatorKeys.all });
    },
  });

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('indicators.searchPlaceholder') },
    {
      kind: 'choice',
      name: 'type',
      label: t('indicators.fields.type'),
      options: indicatorTypeValues.map((value) => ({ value, label: t(`indicators.type.${value}`) })),
      testId: 'filter-type',
    },
    {
      kind: 'choice',
      name: 'policy',
      label: t('indicators.fields.policy'),
      options: [
        { value: 'alert', label: t('indicators.policy.alert') },
        { value: 'ignore', label: t('indicators.policy.ignore') },
      ],
      testId: 'filter-policy',
    },
    {
      kind: 'choice',
      name: 'severity',
      label: t('indicators.fields.severity'),
      options: [...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) })),
      testId: 'filter-severity',
    },
    {
      kind: 'segmented',
      name: 'active',
      label: t('indicators.fields.state'),
      options: [
        { value: undefined, label: t('indicators.anyState') },
        { value: true, label: t('indicators.active') },
        { value: false, label: t('indicators.expired') },
      ],
      testId: 'filter-active',
    },
  ];
  const more: FilterField<Filters>[] = [
    { kind: 'tags', name: 'tags', label: t('indicators.fields.tags'), testId: 'filter-tags' },
    ...(me.companies.length > 1
      ? [
          {
            kind: 'segmented',
            name: 'scope',
            label: t('indicators.fields.scope'),
            options: [
              { value: undefined, label: t('indicators.anyState') },
              { value: 'company', label: t('indicators.scope.company') },
              { value: 'all', label: t('indicators.scope.all') },
            ],
            testId: 'filter-scope',
          } as const,
        ]
      : []),
    { kind: 'company', name: 'companyId', label: t('indicators.fields.company') },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const typeLabel = Object.fromEntries(indicatorTypeValues.map((value) => [value, t(`indicators.type.${value}`)]));
    const policyLabel = { alert: t('indicators.policy.alert'), ignore: t('indicators.policy.ignore') };
    const expired = t('indicators.expired');
    const allCompanies = t('indicators.scope.all');
    const company = companyColumn<Indicator>(t('indicators.fields.company'), me.companies, '130px');
    return presentColumns<Indicator>([
      {
        id: 'value',
        header: t('indicators.fields.value'),
        width: 'minmax(180px, 2fr)',
        sortField: 'value',
        render: (row) =>
          stackCell(
            <span className="vigil-cell-mono" title={row.value}>
              {row.value}
            </span>,
            [typeLabel[row.type] ?? row.type, row.description || row.source].filter(Boolean).join(' · '),
            'vigil-indicator-value',
          ),
      },
      {
        id: 'policy',
        header: t('indicators.fields.policy'),
        width: '125px',
        render: (row) => (
          <span className={`vigil-pill ${row.policy === 'ignore' ? 'vigil-pill--outline' : ''}`}>
            {policyLabel[row.policy]}
          </span>
        ),
      },
      {
        id: 'severity',
        header: t('indicators.fields.severity'),
        width: '120px',
        sortField: 'severity',
        render: (row) => severityPill(row.severity, labels.severity[row.severity]),
      },
      {
        id: 'tags',
        header: t('indicators.fields.tags'),
        width: 'minmax(80px, 1fr)',
        render: (row) =>
          row.tags.length === 0 ? (
            noValue
          ) : (
            <span className="vigil-pills" title={row.tags.join(', ')}>
              {row.tags.slice(0, 3).map((tag) => (
                <span key={tag} className="vigil-pill vigil-pill--outline">
                  {tag}
                </span>
              ))}
            </span>
          ),
      },
      company && {
        ...company,
        render: (row: Indicator) => (row.scope === 'all' ? allCompanies : company.render(row, 0)),
      },
      {
        id: 'expiresAt',
        header: t('indicators.fields.expiresAt'),
        width: '115px',
        sortField: 'expires_at',
        render: (row: Indicator) =>
          row.expiresAt === null
            ? noValue
            : stackCell(
                <time className="vigil-cell-mono" dateTime={row.expiresAt}>
                  {formatDate(row.expiresAt, 'isoDate')}
                </time>,
                !row.active && expired,
              ),
      },
      dateColumn<Indicator>('updatedAt', t('indicators.fields.updatedAt'), (row) => row.updatedAt, {
        sortField: 'updated_at',
        format: 'isoDate',
      }),
      deleteColumn<Indicator>({ header: t('common.actions'), delete: t('common.delete') }, mayDelete, ask, {
        iconOnly: true,
      }),
    ] satisfies (Column<Indicator> | null | false)[]);
  }, [t, me.companies, labels, mayDelete, ask]);
  const rowLabel = useCallback((row: Indicator) => t('indicators.select', { value: row.value }), [t]);
  const filtered = Object.keys(list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t('indicators.title')}
      subtitle={t('indicators.subtitle')}
      actions={
        <Group gap="sm">
          {mayExport && (
            <Button
              component="a"
              href={indicatorExportUrl()}
              download="indicators.csv"
              variant="default"
              leftSection={<IconDownload size={16} />}
              data-testid="indicator-export"
            >
              {t('indicators.export')}
            </Button>
          )}
          {mayImport && (
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setImporting(true)}
              data-testid="indicator-import-open"
            >
              {t('indicators.import.button')}
            </Button>
          )}
          {mayAdd && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing(null)}
              data-testid="indicator-create"
            >
              {t('indicators.create')}
            </Button>
          )}
        </Group>
      }
      filters={filters}
      moreFilters={more}
      table={{
        columns,
        label: t('indicators.title'),
        testId: 'indicators-table',
        rowTestId: 'indicator-row',
        rowHeight: 52,
        rowLabel,
        onRowClick: (row) => mayChange && setEditing(row),
        empty: filtered ? t('indicators.nothingMatches') : t('indicators.empty'),
        loadFailed: t('indicators.loadFailed'),
      }}
      selectAllMatching={false}
      bulkActions={
        mayDelete ? (
          <Button
            size="compact-sm"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={() => setBulkAsked(true)}
            data-testid="indicator-bulk-delete"
          >
            {t('indicators.bulkDelete')}
          </Button>
        ) : undefined
      }
      footerTestId="indicators"
    >
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={
          <Text fw={700} lineClamp={1}>
            {editing ? t('indicators.editTitle', { value: editing.value }) : t('indicators.newTitle')}
          </Text>
        }
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing !== undefined && (
          <>
            {editing === null && (
              <Text size="sm" c="dimmed" mb="sm">
                {t('indicators.retroHunt')}
              </Text>
            )}
            <IndicatorForm key={editing?.id ?? 'new'} indicator={editing} onClose={() => setEditing(undefined)} />
          </>
        )}
      </Modal>
      <IndicatorImportModal opened={importing} onClose={() => setImporting(false)} />
      <ConfirmModal
        opened={bulkAsked}
        title={t('indicators.bulkDeleteTitle')}
        message={t('indicators.bulkDeleteConfirm', { count: selection.size })}
        confirmLabel={t('common.delete')}
        danger
        loading={bulk.isPending}
        onConfirm={() => bulk.mutate()}
        onClose={() => setBulkAsked(false)}
      />
      {removal.dialog}
    </ListPage>
  );
}
