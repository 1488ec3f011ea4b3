import { Button, Switch } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Matcher as MatcherWire } from '@vigil/contract';
import { useCallback, useMemo } from 'react';
import type { Column } from '../../../components/list';
import {
  companyColumn,
  dateColumn,
  deleteColumn,
  ListPage,
  presentColumns,
  usePagedListPage,
  useRowDelete,
  type FilterField,
} from '../../../components/list-page';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link, useNavigate } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { deleteMatcher, matcherKeys, matcherList, matcherPath, updateMatcher } from '../api/matchers';
import type { Matcher } from '../lib/matcher-draft';
import { conditionsSummary } from '../lib/matcher-summary';
import { MatcherTabs } from './matcher-tabs';
import { useSummaryLabels } from './summary-labels';

type Filters = typeof matcherList.filters;
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
const hrefOf = (matcher: Matcher) => matcherPath(matcher.id);

/** Settings → Committed actions: the matchers in the order they run; on/off, edit, delete. */
export default function MatchersPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayAdd = usePermission({ action: 'add', subject: 'matchers' });
  const mayChange = usePermission({ action: 'change', subject: 'matchers' });
  const mayDelete = usePermission({ action: 'delete', subject: 'matchers' });
  const model = usePagedListPage<MatcherWire, Filters>(matcherList);
  const summaryLabels = useSummaryLabels();
  const removal = useRowDelete<Matcher>({
    remove: deleteMatcher,
    invalidate: [matcherKeys.all],
    title: t('matchers.delete'),
    question: (row) => t('matchers.deleteConfirm', { name: row.name }),
    deleted: (row) => t('matchers.deleted', { name: row.name }),
  });
  const ask = removal.ask;
  const toggle = useMutation({
    mutationFn: (row: Matcher) => updateMatcher(row.id, { enabled: !row.enabled }),
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: t(answer.enabled ? 'matchers.enabledNow' : 'matchers.disabledNow', { name: answer.name }),
      });
      await queryClient.invalidateQueries({ queryKey: matcherKeys.all });
    },
  });
  const flip = toggle.mutate;

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('matchers.searchPlaceholder') },
    {
      kind: 'segmented',
      name: 'enabled',
      label: t('matchers.fields.state'),
      options: [
        { value: undefined, label: t('matchers.state.any') },
        { value: true, label: t('matchers.state.on') },
        { value: false, label: t('matchers.state.off') },
      ],
      testId: 'filter-enabled',
    },
    { kind: 'company', name: 'companyId', label: t('matchers.fields.company') },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const typeLabel = (type: string) => t(`matchers.actionType.${type}` as 'matchers.actionType.assign');
    const allCompanies = t('matchers.fields.allCompanies');
    const company = companyColumn<Matcher>(t('matchers.fields.company'), me.companies, '130px');
    return presentColumns<Matcher>([
      {
        id: 'enabled',
        header: t('matchers.fields.enabled'),
        width: '90px',
        render: (row) => (
          // The switch's own click must not open the row.
          <span onClick={stop} className="vigil-cell-switch">
            <Switch
              checked={row.enabled}
              disabled={!mayChange}
              onChange={() => flip(row)}
              aria-label={t('matchers.toggle', { name: row.name })}
              data-testid="matcher-toggle"
            />
          </span>
        ),
      },
      {
        id: 'position',
        header: t('matchers.fields.position'),
        width: '90px',
        sortField: 'position',
        render: (row) => row.position,
      },
      {
        id: 'name',
        header: t('matchers.fields.name'),
        width: 'minmax(160px, 1.2fr)',
        sortField: 'name',
        render: (row) => (
          <Link to={hrefOf(row)} className="vigil-row__name" onClick={stop} title={row.name}>
            {row.name}
          </Link>
        ),
      },
      {
        id: 'conditions',
        header: t('matchers.fields.conditions'),
        width: 'minmax(170px, 2fr)',
        render: (row) => {
          const text = conditionsSummary(row.conditions, summaryLabels);
          return <span title={text}>{text}</span>;
        },
      },
      {
        id: 'actions-taken',
        header: t('matchers.fields.actions'),
        width: 'minmax(150px, 1.5fr)',
        render: (row) => {
          const text = row.actions.map((action) => typeLabel(action.type)).join(', ');
          return <span title={text}>{text}</span>;
        },
      },
      company && {
        ...company,
        render: (row: Matcher) => (row.allCompanies ? allCompanies : company.render(row, 0)),
      },
      dateColumn<Matcher>('updatedAt', t('matchers.fields.updatedAt'), (row) => row.updatedAt, { format: 'isoDate' }),
      deleteColumn<Matcher>({ header: t('common.actions'), delete: t('common.delete') }, mayDelete, ask, {
        iconOnly: true,
      }),
    ] satisfies (Column<Matcher> | null | false)[]);
  }, [t, me.companies, summaryLabels, mayChange, mayDelete, ask, flip]);
  const rowLabel = useCallback((row: Matcher) => row.name, []);
  const filtered = Object.keys(model.list.filters).length > 0;

  return (
    <ListPage
      model={model}
      title={t('matchers.title')}
      subtitle={t('matchers.subtitle')}
      actions={
        mayAdd && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => navigate(matcherPath('new'))}
            data-testid="matcher-create"
          >
            {t('matchers.create')}
          </Button>
        )
      }
      above={<MatcherTabs active="matchers" />}
      filters={filters}
      table={{
        columns,
        label: t('matchers.title'),
        testId: 'matchers-table',
        rowTestId: 'matcher-row',
        rowLabel,
        rowHref: hrefOf,
        empty: filtered ? t('matchers.nothingMatches') : t('matchers.empty'),
        loadFailed: t('matchers.loadFailed'),
      }}
      footerTestId="matchers"
    >
      {removal.dialog}
    </ListPage>
  );
}
