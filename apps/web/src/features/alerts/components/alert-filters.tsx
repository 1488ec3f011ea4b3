import { Button, Group, Paper, Select } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { alertSeverityValues, alertSources, alertStatuses } from '@vigil/contract/client';
import { memo, type Ref } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FilterControl, SearchFilter, type FilterField } from '../../../components/list-page/filter-bar';
import type { ListState } from '../../../lib/list';
import { useSignedInUser } from '../../../lib/session';
import type { alertList } from '../api/alerts';
import { useAssignableUsers, useCompanyNames, userLabel } from '../api/hooks';
import { CUSTOM_WINDOW, TimeWindowFilter } from '../../../components/time-window/time-window-filter';

type State = ListState<(typeof alertList)['filters']>;

const ANY = '';
const ME = 'me';
const NOBODY = 'nobody';

/** The assignee picker's value from the URL filters. */
function assigneeValue(filters: State['filters'], me: number): string {
  if (filters.unassigned === true) return NOBODY;
  const ids = filters.assigneeId ?? [];
  if (ids.length === 1) return ids[0] === me ? ME : String(ids[0]);
  return ANY;
}

/** The queue's filter bar; every value lives in the URL. Memoised: it renders again only when the URL does, not as rows load. */
export const AlertFilters = memo(function AlertFilters({
  list,
  searchRef,
}: {
  list: State;
  searchRef: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const { users, byId } = useAssignableUsers();
  const companies = useCompanyNames();
  const f = list.filters;
  const custom = f.lastSeenFrom !== undefined || f.lastSeenTo !== undefined;
  const timeValue = custom ? CUSTOM_WINDOW : f.period;
  const filtered = Object.values(f).some((value) => value !== undefined);

  const assignee = assigneeValue(f, me.id);
  const assigneeOptions = [
    { value: ANY, label: t('alerts.filters.assigneeAny') },
    { value: ME, label: t('alerts.filters.assigneeMe') },
    { value: NOBODY, label: t('alerts.filters.assigneeNobody') },
    ...users
      .filter((user) => user.id !== me.id)
      .map((user) => ({ value: String(user.id), label: userLabel(user, user.id) })),
  ];
  // A user in the URL that the picker does not list (e.g. archived) still shows.
  if (assignee !== ANY && assignee !== ME && assignee !== NOBODY && !byId.has(Number(assignee))) {
    assigneeOptions.push({ value: assignee, label: `#${assignee}` });
  }

  const choices: FilterField<(typeof alertList)['filters']>[] = [
    {
      kind: 'choice',
      name: 'status',
      label: t('alerts.filters.status'),
      options: alertStatuses.map((value) => ({ value, label: t(`triage.alertStatus.${value}`) })),
      testId: 'filter-status',
    },
    {
      kind: 'choice',
      name: 'severity',
      label: t('alerts.filters.severity'),
      options: [...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) })),
      testId: 'filter-severity',
    },
    {
      kind: 'choice',
      name: 'source',
      label: t('alerts.filters.source'),
      options: alertSources.map((value) => ({ value, label: t(`triage.source.${value}`) })),
      className: 'vigil-filters__narrow',
      testId: 'filter-source',
    },
  ];

  return (
    <Paper className="vigil-filters vigil-alert-filters" p="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchFilter
          list={list}
          name="search"
          label={t('common.search')}
          placeholder={t('alerts.filters.searchPlaceholder')}
          testId="alerts-search"
          inputRef={searchRef}
        />
        {choices.map((field) => (
          <FilterControl key={field.name} field={field} list={list} />
        ))}
        <Select
          className="vigil-filters__narrow"
          label={t('alerts.filters.assignee')}
          data={assigneeOptions}
          value={assignee}
          onChange={(value) => {
            if (value === ME) list.setFilters({ assigneeId: [me.id], unassigned: undefined });
            else if (value === NOBODY) list.setFilters({ assigneeId: undefined, unassigned: true });
            else if (value) list.setFilters({ assigneeId: [Number(value)], unassigned: undefined });
            else list.setFilters({ assigneeId: undefined, unassigned: undefined });
          }}
          searchable
          allowDeselect={false}
          data-testid="filter-assignee"
        />
        {companies.many && (
          <FilterControl
            field={{
              kind: 'ids',
              name: 'companyId',
              label: t('alerts.filters.company'),
              options: [...companies.byId].map(([value, label]) => ({ value, label })),
              testId: 'filter-company',
            }}
            list={list}
          />
        )}
        <FilterControl
          field={{
            kind: 'tags',
            name: 'tags',
            label: t('alerts.filters.tags'),
            placeholder: t('alerts.filters.tagsPlaceholder'),
            maxTags: 50,
            className: 'vigil-filters__narrow',
            testId: 'filter-tags',
          }}
          list={list}
        />
        <TimeWindowFilter
          list={list}
          periods={[
            { value: '1h', label: t('triage.timeRange.lastHour') },
            { value: '24h', label: t('triage.timeRange.last24h') },
            { value: '7d', label: t('triage.timeRange.last7d') },
            { value: '30d', label: t('triage.timeRange.last30d') },
          ]}
          value={timeValue}
          from={{ name: 'lastSeenFrom', label: t('alerts.filters.from') }}
          to={{ name: 'lastSeenTo', label: t('alerts.filters.to') }}
          onCustom={() => {
            const from = new Date(Date.now() - 24 * 3_600_000).toISOString();
            list.setFilters({ period: undefined, lastSeenFrom: from, lastSeenTo: undefined });
          }}
          testId="filter-time"
        />
        <Button
          variant="subtle"
          leftSection={<IconFilterOff size={16} />}
          disabled={!filtered}
          onClick={() => {
            list.resetFilters();
          }}
        >
          {t('common.resetFilters')}
        </Button>
      </Group>
    </Paper>
  );
});
