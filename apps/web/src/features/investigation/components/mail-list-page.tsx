import './investigation.css';
import { Group } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { stackCell, useScrolledListPage, type FilterField } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { mailMessageUrl } from '../../triage';
import { mailList, mailMessageOf, type MailListItem } from '../api/investigation';
import { EventListPage } from './event-list-page';
import { AuthPill } from './mail-parts';
import { VerdictBadge, segmentsField } from './shared';

type Filters = typeof mailList.filters;

const authResults = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror'];
const messageUrl = (row: MailListItem) => mailMessageUrl(row.id);

/** Investigation → Emails: received messages with their senders, recipients, authentication and verdict. */
export default function MailListPage() {
  const { t } = useTranslation();
  const model = useScrolledListPage<MailListItem, Filters>(mailList);

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
        width: '118px',
        render: (row) => <VerdictBadge verdict={row.verdict.verdict} />,
      },
      {
        id: 'from',
        header: t('investigation.mail.from'),
        width: 'minmax(134px, 1fr)',
        render: (row) => {
          const from = mailMessageOf(row).from;
          return from ? stackCell(from.name ?? from.address, from.name && from.address) : '—';
        },
      },
      {
        id: 'to',
        header: t('investigation.mail.to'),
        width: 'minmax(104px, 1fr)',
        render: (row) => {
          const message = mailMessageOf(row);
          const all = [...message.to, ...message.cc];
          return all.length === 0 ? (
            '—'
          ) : (
            <span>
              {all[0]!.address ?? all[0]!.name}
              {all.length > 1 && <span className="vigil-inv-dim"> +{all.length - 1}</span>}
            </span>
          );
        },
      },
      {
        id: 'subject',
        header: t('investigation.mail.subject'),
        width: 'minmax(160px, 2fr)',
        render: (row) => {
          const subject = mailMessageOf(row).subject ?? t('investigation.mail.noSubject');
          return <span title={subject}>{subject}</span>;
        },
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
        width: '260px',
        render: (row) => {
          const headers = mailMessageOf(row).headers;
          return (
            <Group gap={4} wrap="nowrap" className="vigil-inv-auth-pills">
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

  const authFilter = (name: 'spf' | 'dkim' | 'dmarc'): FilterField<Filters> => ({
    kind: 'choice',
    name,
    label: name.toUpperCase(),
    options: authResults,
  });
  const fields: FilterField<Filters>[] = [
    authFilter('spf'),
    authFilter('dkim'),
    authFilter('dmarc'),
    segmentsField('hasAttachments', t('investigation.mail.attachments'), t('common.any'), [
      [true, t('investigation.mail.withAttachments')],
      [false, t('investigation.mail.withoutAttachments')],
    ]),
  ];

  return <EventListPage section="mail" model={model} columns={columns} filters={fields} rowHref={messageUrl} />;
}
