import './investigation.css';
import { Button, Group, MultiSelect, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconFilterOff, IconPaperclip, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, useSearchBox, VirtualTable, type Column } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useInfiniteList, useListState } from '../../../lib/list';
import { mailMessageUrl } from '../../triage';
import { mailList, mailMessageOf, type MailListItem } from '../api/investigation';
import { AuthPill } from './mail-parts';
import { CompanyFilter, TimeRangeFilter, VerdictBadge } from './shared';

const authResults = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror'];

/** Investigation → Emails: received messages with their senders, recipients, authentication and verdict. */
export default function MailListPage() {
  const { t, i18n } = useTranslation();
  const list = useListState(mailList);
  const { filters, setFilters } = list;
  const data = useInfiniteList<MailListItem, typeof mailList.filters>(mailList, list);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const [active, setActive] = useState(-1);

  const columns = useMemo<Column<MailListItem>[]>(
    () => [
      {
        id: 'ts',
        header: t('investigation.mail.received'),
        width: '140px',
        sortField: 'ts',
        render: (row) => <span className="vigil-inv-mono">{formatDate(row.ts)}</span>,
      },
      {
        id: 'verdict',
        header: t('investigation.mail.verdict'),
        width: '110px',
        render: (row) => <VerdictBadge verdict={row.verdict.verdict} />,
      },
      {
        id: 'from',
        header: t('investigation.mail.from'),
        width: '190px',
        render: (row) => {
          const from = mailMessageOf(row).from;
          return from ? (
            <div className="vigil-inv-cell-stack">
              <span>{from.name ?? from.address}</span>
              {from.name && <span className="vigil-inv-dim">{from.address}</span>}
            </div>
          ) : (
            '—'
          );
        },
      },
      {
        id: 'to',
        header: t('investigation.mail.to'),
        width: '150px',
        render: (row) => {
          const message = mailMessageOf(row);
          const all = [...message.to, ...message.cc];
          return all.length === 0 ? (
            '—'
          ) : (
            <span>
              {all[0]!.address}
              {all.length > 1 && <span className="vigil-inv-dim"> +{all.length - 1}</span>}
            </span>
          );
        },
      },
      {
        id: 'subject',
        header: t('investigation.mail.subject'),
        width: 'minmax(220px, 1fr)',
        render: (row) => <span>{mailMessageOf(row).subject ?? t('investigation.mail.noSubject')}</span>,
      },
      {
        id: 'attachments',
        header: <IconPaperclip size={14} aria-label={t('investigation.mail.attachments')} />,
        width: '48px',
        align: 'end',
        render: (row) => {
          const count = mailMessageOf(row).attachments.length;
          return count > 0 ? (
            <span data-testid="attachment-count">{count}</span>
          ) : (
            <span className="vigil-inv-dim">—</span>
          );
        },
      },
      {
        id: 'auth',
        header: t('investigation.mail.authentication'),
        width: '230px',
        render: (row) => {
          const headers = mailMessageOf(row).headers;
          return (
            <Group gap={4} wrap="nowrap">
              <AuthPill method="spf" result={headers.spf} />
              <AuthPill method="dkim" result={headers.dkim} />
              <AuthPill method="dmarc" result={headers.dmarc} />
            </Group>
          );
        },
      },
    ],
    [t],
  );

  const filtered = Object.keys(filters).length > 0;
  const authFilter = (name: 'spf' | 'dkim' | 'dmarc') => (
    <MultiSelect
      className="vigil-filters__tags"
      label={name.toUpperCase()}
      placeholder={filters[name]?.length ? undefined : t('common.any')}
      data={authResults}
      value={filters[name] ?? []}
      onChange={(value) => setFilters({ [name]: value })}
      clearable
    />
  );

  return (
    <Stack gap="md" className="vigil-list-page">
      <PageHeader
        title={t('investigation.mail.title')}
        subtitle={
          data.count === undefined
            ? t('investigation.mail.subtitle')
            : t('investigation.common.matching', { total: data.count.toLocaleString(i18n.language) })
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('investigation.mail.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
            data-testid="filter-search"
          />
          <TimeRangeFilter from={filters.tsFrom} to={filters.tsTo} onChange={setFilters} />
          {authFilter('spf')}
          {authFilter('dkim')}
          {authFilter('dmarc')}
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('investigation.mail.attachments')}
            </Text>
            <SegmentedControl
              size="sm"
              value={filters.hasAttachments === undefined ? 'any' : String(filters.hasAttachments)}
              onChange={(value) => setFilters({ hasAttachments: value === 'any' ? undefined : value === 'true' })}
              data={[
                { value: 'any', label: t('common.any') },
                { value: 'true', label: t('investigation.mail.withAttachments') },
                { value: 'false', label: t('investigation.mail.withoutAttachments') },
              ]}
            />
          </div>
          <CompanyFilter value={filters.companyId} onChange={(companyId) => setFilters({ companyId })} />
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              search.clear();
              list.resetFilters();
            }}
          >
            {t('common.resetFilters')}
          </Button>
        </Group>
      </Paper>

      {data.error !== null && data.error !== undefined && (
        <LoadError message={t('investigation.common.loadFailed')} onRetry={() => void data.refresh()} />
      )}

      <VirtualTable<MailListItem>
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={columns}
        ariaLabel={t('investigation.mail.title')}
        rowHeight={46}
        total={data.count}
        ordering={list.ordering}
        onSort={list.toggleOrdering}
        activeIndex={active}
        onActiveIndexChange={setActive}
        rowHref={(row) => mailMessageUrl(row.id)}
        hasMore={data.hasMore}
        loadMore={data.loadMore}
        loading={data.isLoading}
        loadingMore={data.isLoadingMore}
        empty={
          <Text c="dimmed" size="sm">
            {t('investigation.mail.empty')}
          </Text>
        }
        testId="mail-table"
      />
    </Stack>
  );
}
