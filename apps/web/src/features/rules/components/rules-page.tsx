import './rules.css';
import { Alert, Button, Group, Stack, Switch } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSeverityValues } from '@vigil/contract/client';
import type { Rule as RuleWire } from '@vigil/contract';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import {
  dateColumn,
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { severityPill, useTriageLabels } from '../../triage';
import {
  ruleKeys,
  ruleLists,
  rulePath,
  ruleSubject,
  switchRules,
  type Rule,
  type RuleKind,
  type RuleListFilters,
} from '../api/rules';
import { RuleImportModal } from './rule-import';
import { SuricataTabs, useRuleKind } from './rule-kind';
import { YaraScanProgress } from './yara-scan-progress';

type Filters = RuleListFilters;
type BulkAnswer = Awaited<ReturnType<typeof switchRules>>;
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** Settings → Suricata signatures, Sigma rules, YARA signatures: the kind is read from the address. */
export default function RulesPage() {
  const kind = useRuleKind();
  // A new kind is a new page: its list state, selection and dialogs start afresh.
  return <RuleList key={kind} kind={kind} />;
}

/** A list of short values in one cell, ending in an ellipsis when it does not fit, the whole list in its title. */
function listCell(values: readonly string[], mono = false) {
  if (values.length === 0) return noValue;
  const text = values.join(', ');
  return (
    <span className={`vigil-rule-cut${mono ? ' vigil-cell-mono' : ''}`} title={text}>
      {text}
    </span>
  );
}

function RuleList({ kind }: { kind: RuleKind }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const labels = useTriageLabels();
  const queryClient = useQueryClient();
  const subject = ruleSubject(kind);
  const mayChange = usePermission({ action: 'change', subject });
  const mayImport = usePermission({ action: 'import', subject });
  const definition = ruleLists[kind];
  const model = usePagedListPage<RuleWire, Filters>(definition, { selectable: mayChange });
  const { list, selection } = model;
  const [importing, setImporting] = useState(false);
  const [answer, setAnswer] = useState<BulkAnswer | null>(null);

  const bulk = useMutation({
    mutationFn: ({ enabled, target }: { enabled: boolean; target: Parameters<typeof switchRules>[2] }) =>
      switchRules(kind, enabled, target),
    onSuccess: async (result) => {
      setAnswer(result);
      selection.clear();
      await queryClient.invalidateQueries({ queryKey: ruleKeys.all(kind) });
    },
  });
  const flip = bulk.mutate;
  const switchSelected = (enabled: boolean) => {
    const request = selection.asRequest();
    flip({ enabled, target: 'ids' in request ? { ids: request.ids } : { filters: request.filter } });
  };

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('rules.searchPlaceholder') },
    {
      kind: 'segmented',
      name: 'enabled',
      label: t('rules.fields.state'),
      options: [
        { value: undefined, label: t('rules.state.any') },
        { value: true, label: t('rules.state.on') },
        { value: false, label: t('rules.state.off') },
      ],
      testId: 'filter-enabled',
    },
    {
      kind: 'segmented',
      name: 'unsupported',
      label: t('rules.fields.support'),
      options: [
        { value: undefined, label: t('rules.state.any') },
        { value: false, label: t('rules.state.supported') },
        { value: true, label: t('rules.state.unsupported') },
      ],
      testId: 'filter-unsupported',
    },
    {
      kind: 'choice',
      name: 'level',
      label: t('rules.fields.level'),
      options: [...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) })),
      testId: 'filter-level',
    },
  ];
  const more: FilterField<Filters>[] = [
    { kind: 'tags', name: 'technique', label: t('rules.fields.techniques'), testId: 'filter-technique' },
    { kind: 'tags', name: 'tag', label: t('rules.fields.tags'), testId: 'filter-tag' },
    { kind: 'tags', name: 'author', label: t('rules.fields.author'), testId: 'filter-author' },
    { kind: 'tags', name: 'fileName', label: t('rules.fields.file'), testId: 'filter-file' },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const allCompanies = t('rules.scopeAll');
    const never = t('rules.never');
    const names = new Map(me.companies.map((company) => [company.id, company.name]));
    const companyOf =
      me.companies.length > 1
        ? (row: Rule) => (row.scope === 'all' ? allCompanies : (names.get(row.companyId) ?? `#${row.companyId}`))
        : null;
    return presentColumns<Rule>([
      {
        id: 'enabled',
        header: t('rules.fields.enabled'),
        width: '64px',
        render: (row) => (
          // The switch's own click must not open the row.
          <span onClick={stop} className="vigil-cell-switch">
            <Switch
              size="sm"
              checked={row.effectiveEnabled}
              disabled={!mayChange || (row.unsupported !== null && !row.effectiveEnabled)}
              onChange={() => flip({ enabled: !row.effectiveEnabled, target: { ids: [row.id] } })}
              aria-label={row.title}
              data-testid="rule-toggle"
            />
          </span>
        ),
      },
      {
        id: 'key',
        header: t('rules.fields.key'),
        width: '120px',
        sortField: 'rule_key',
        // Who sees several companies reads whose rule it is under the key; the others, its file.
        render: (row) => {
          const under = companyOf ? companyOf(row) : row.fileName;
          return stackCell(
            <span className="vigil-cell-mono vigil-rule-cut" title={row.ruleKey}>
              {row.ruleKey}
            </span>,
            <span className="vigil-rule-cut" title={companyOf ? `${under} · ${row.fileName}` : under}>
              {under}
            </span>,
          );
        },
      },
      {
        id: 'title',
        header: t('rules.fields.title'),
        width: 'minmax(172px, 4fr)',
        sortField: 'title',
        render: (row) =>
          stackCell(
            <span className="vigil-rule-cut vigil-rule-title" title={row.title}>
              {row.title}
            </span>,
            row.unsupported !== null ? (
              <span className="vigil-rule-cut vigil-rule-unsupported" title={row.unsupported}>
                {t('rules.unsupported', { reason: row.unsupported })}
              </span>
            ) : (
              row.description && (
                <span className="vigil-rule-cut" title={row.description}>
                  {row.description}
                </span>
              )
            ),
          ),
      },
      {
        id: 'level',
        header: t('rules.fields.level'),
        width: '124px',
        sortField: 'level',
        render: (row) => severityPill(row.level, labels.severity[row.level]),
      },
      {
        id: 'techniques',
        header: t('rules.fields.techniques'),
        width: 'minmax(72px, 1fr)',
        render: (row) => listCell(row.techniques, true),
      },
      {
        id: 'tags',
        header: t('rules.fields.tags'),
        width: 'minmax(80px, 1.2fr)',
        // Tags are long (attack.defense-impairment): text that ends in an ellipsis reads better than cut pills.
        render: (row) => listCell(row.tags),
      },
      {
        id: 'author',
        header: t('rules.fields.author'),
        width: 'minmax(90px, 1.2fr)',
        render: (row) =>
          row.author || row.licence
            ? stackCell(
                <span className="vigil-rule-cut" title={row.author}>
                  {row.author || '—'}
                </span>,
                row.licence && (
                  <span className="vigil-rule-cut" title={row.licence}>
                    {row.licence}
                  </span>
                ),
              )
            : noValue,
      },
      {
        id: 'hits',
        header: <span title={t('rules.fields.hitsHint')}>{t('rules.fields.hits')}</span>,
        width: '96px',
        render: (row) =>
          stackCell(
            <span className="vigil-cell-mono" data-testid="rule-hits">
              {row.hits30d}
            </span>,
            row.lastHitAt ? (
              <time dateTime={row.lastHitAt} title={formatDate(row.lastHitAt, 'isoDateTime')}>
                {formatDate(row.lastHitAt, 'isoDate')}
              </time>
            ) : (
              never
            ),
          ),
      },
      dateColumn<Rule>('updatedAt', t('rules.fields.updated'), (row) => row.updatedAt, {
        sortField: 'updated_at',
        format: 'isoDate',
        width: '100px',
      }),
    ] satisfies (Column<Rule> | null | false)[]);
  }, [t, me.companies, labels, mayChange, flip]);
  const rowLabel = useCallback((row: Rule) => t('rules.select', { key: row.ruleKey }), [t]);
  const hrefOf = useCallback((row: Rule) => rulePath(kind, row.id), [kind]);
  const filtered = Object.keys(list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t(`rules.kinds.${kind}.title`)}
      subtitle={t(`rules.kinds.${kind}.subtitle`)}
      actions={
        mayImport && (
          <Button
            variant="default"
            leftSection={<IconUpload size={16} />}
            onClick={() => setImporting(true)}
            data-testid="rule-import-open"
          >
            {t('rules.import.button')}
          </Button>
        )
      }
      above={
        <Stack gap="sm">
          {kind === 'suricata' && <SuricataTabs active="rules" />}
          {kind === 'yara' && <YaraScanProgress />}
          {answer && (
            <Alert
              color={answer.skippedUnsupported > 0 ? 'yellow' : 'teal'}
              variant="light"
              withCloseButton
              closeButtonLabel={t('common.close')}
              onClose={() => setAnswer(null)}
              data-testid="rule-bulk-answer"
            >
              {bulkText(answer, t)}
            </Alert>
          )}
        </Stack>
      }
      filters={filters}
      moreFilters={more}
      table={{
        columns,
        label: t(`rules.kinds.${kind}.title`),
        testId: 'rules-table',
        rowTestId: 'rule-row',
        rowHeight: 52,
        rowLabel,
        rowHref: hrefOf,
        empty: filtered ? t('rules.nothingMatches') : t(`rules.kinds.${kind}.empty`),
        loadFailed: t('rules.loadFailed'),
      }}
      bulkActions={
        mayChange ? (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPlayerPlay size={14} />}
              loading={bulk.isPending}
              onClick={() => switchSelected(true)}
              data-testid="rule-bulk-enable"
            >
              {t('rules.bulk.enable')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPlayerPause size={14} />}
              loading={bulk.isPending}
              onClick={() => switchSelected(false)}
              data-testid="rule-bulk-disable"
            >
              {t('rules.bulk.disable')}
            </Button>
          </Group>
        ) : undefined
      }
      footerTestId="rules"
    >
      <RuleImportModal kind={kind} opened={importing} onClose={() => setImporting(false)} />
    </ListPage>
  );
}

/** What a switch of many rules did, in one sentence per part. */
function bulkText(answer: BulkAnswer, t: ReturnType<typeof useTranslation>['t']): string {
  const parts: string[] = [];
  if (answer.changed > 0) parts.push(t('rules.bulk.done', { changed: answer.changed }));
  if (answer.companySettings > 0) parts.push(t('rules.bulk.companies', { count: answer.companySettings }));
  if (answer.skippedUnsupported > 0) parts.push(t('rules.bulk.skipped', { count: answer.skippedUnsupported }));
  return parts.length > 0 ? parts.join(' ') : t('rules.bulk.nothing');
}
