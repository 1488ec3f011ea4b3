import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { useScrolledListPage, type FilterField } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { fileApiFilters, fileList, type WarehouseHash } from '../api/investigation';
import { formatBytes } from '../lib/summaries';
import { EventListPage } from './event-list-page';
import { fileColumns, fileFilters } from './file-columns';
import { FileDrawer } from './file-drawer';
import { segmentsField, useCompanyName, VerdictBadge } from './shared';

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
      fileColumns.name<WarehouseHash>(t),
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
      fileColumns.sightings<WarehouseHash>(t, i18n.language),
      {
        id: 'last',
        header: t('investigation.files.lastSeen'),
        width: '156px',
        sortField: 'last_seen',
        render: (row) => formatDate(row.lastSeen),
      },
      fileColumns.company<WarehouseHash>(t, companyName),
    ],
    [t, i18n.language, companyName],
  );

  const fields: FilterField<Filters>[] = [
    ...fileFilters<Filters>(t, model.list),
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
