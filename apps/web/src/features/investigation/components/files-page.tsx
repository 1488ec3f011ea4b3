import { detectedFileTypes } from '@vigil/contract/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { stackCell, useScrolledListPage, type FilterField } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { fileApiFilters, fileList, type WarehouseHash } from '../api/investigation';
import { formatBytes } from '../lib/summaries';
import { EventListPage } from './event-list-page';
import { FileDrawer } from './file-drawer';
import { hashFilterField, segmentsField, useCompanyName, VerdictBadge } from './shared';

type Filters = typeof fileList.filters;

const sources = ['mail', 'network', 'endpoint'] as const;

/** Investigation → Files: every hash the companies saw (mail attachments, files on the wire), with where it was seen. */
export default function FilesPage() {
  const { t, i18n } = useTranslation();
  const model = useScrolledListPage<WarehouseHash, Filters>(fileList, { toApi: fileApiFilters });
  const { filters } = model.list;
  const [open, setOpen] = useState<string | null>(null);
  const companyName = useCompanyName();

  // Arriving with `?sha256=` (a link from a mail, an alert or a process): open that file's details at once.
  const opened = useRef<string | null>(null);
  const wanted = filters.sha256?.toLowerCase();
  useEffect(() => {
    if (!wanted || opened.current === wanted || model.fetching) return;
    if (model.rows.length > 0 && model.rows.every((row) => row.sha256 === wanted)) {
      opened.current = wanted;
      setOpen(wanted);
    }
  }, [wanted, model.rows, model.fetching]);

  const columns = useMemo<Column<WarehouseHash>[]>(
    () => [
      {
        id: 'name',
        header: t('investigation.files.name'),
        width: 'minmax(200px, 2fr)',
        render: (row) =>
          stackCell(
            row.filename ?? t('investigation.files.unnamed'),
            <span className="vigil-inv-mono" title={row.sha256}>
              {row.sha256}
            </span>,
          ),
      },
      {
        id: 'verdict',
        header: t('investigation.mail.verdict'),
        width: '118px',
        render: (row) => <VerdictBadge verdict={row.verdict} />,
      },
      {
        id: 'type',
        header: t('investigation.files.type'),
        width: '80px',
        render: (row) => row.detectedType ?? <span className="vigil-inv-dim">—</span>,
      },
      {
        id: 'size',
        header: t('investigation.files.size'),
        width: '88px',
        align: 'end',
        render: (row) =>
          row.size === null ? <span className="vigil-inv-dim">—</span> : formatBytes(row.size, i18n.language),
      },
      {
        id: 'sources',
        header: t('investigation.files.seenIn'),
        width: 'minmax(100px, 1fr)',
        render: (row) => row.sources.map((source) => t(`investigation.files.sources.${source as 'mail'}`)).join(', '),
      },
      {
        id: 'sightings',
        header: t('investigation.files.sightings'),
        width: '112px',
        sortField: 'sightings',
        align: 'end',
        render: (row) => row.sightings.toLocaleString(i18n.language),
      },
      {
        id: 'last',
        header: t('investigation.files.lastSeen'),
        width: '156px',
        sortField: 'last_seen',
        render: (row) => formatDate(row.lastSeen),
      },
      {
        id: 'company',
        header: t('investigation.common.company'),
        width: 'minmax(100px, 1fr)',
        render: (row) => <span className="vigil-inv-dim">{companyName(row.companyId)}</span>,
      },
    ],
    [t, i18n.language, companyName],
  );

  const fields: FilterField<Filters>[] = [
    hashFilterField('sha256', t('investigation.files.hash'), model.list, 'filter-hash'),
    {
      kind: 'choice',
      name: 'detectedType',
      label: t('investigation.files.type'),
      options: detectedFileTypes,
      searchable: true,
    },
    {
      kind: 'choice',
      name: 'source',
      label: t('investigation.files.seenIn'),
      options: sources.map((value) => ({ value, label: t(`investigation.files.sources.${value}`) })),
    },
    segmentsField('verdict', t('investigation.mail.verdict'), t('common.any'), [
      ['malicious', t('investigation.verdict.malicious')],
      ['unknown', t('investigation.verdict.unknown')],
    ]),
  ];

  return (
    <EventListPage
      section="files"
      model={model}
      columns={columns}
      filters={fields}
      onOpen={(row) => setOpen(row.sha256)}
    >
      <FileDrawer sha256={open} onClose={() => setOpen(null)} />
    </EventListPage>
  );
}
