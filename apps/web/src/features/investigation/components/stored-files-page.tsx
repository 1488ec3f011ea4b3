import { ActionIcon, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import { stackCell, useScrolledListPage, type FilterField } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { fileDownloadUrl, storedFileApiFilters, storedFileList, type WarehouseFile } from '../api/investigation';
import { formatBytes } from '../lib/summaries';
import { EventListPage } from './event-list-page';
import { fileColumns, fileFilters } from './file-columns';
import { FileDrawer } from './file-drawer';
import { useCompanyName } from './shared';

type Filters = typeof storedFileList.filters;

/**
 * Warehouse: the files whose bytes the warehouse holds (mail attachments, files sensors extracted),
 * one row a company, with their hashes, size, type and sightings; a row opens the file's drawer (where
 * it was seen, its YARA results) and those allowed may download the bytes. Warehouse hashes (every hash
 * seen, stored or not) is the Files page of the investigation.
 */
export default function StoredFilesPage() {
  const { t, i18n } = useTranslation();
  const model = useScrolledListPage<WarehouseFile, Filters>(storedFileList, { toApi: storedFileApiFilters });
  const [open, setOpen] = useState<string | null>(null);
  const companyName = useCompanyName();
  const canDownload = usePermission({ action: 'download', subject: 'warehouse' });

  const columns = useMemo<Column<WarehouseFile>[]>(
    () => [
      fileColumns.name<WarehouseFile>(t),
      {
        id: 'type',
        header: t('investigation.files.type'),
        width: '80px',
        render: (row) => row.detectedType || <span className="vigil-inv-dim">—</span>,
      },
      {
        id: 'size',
        header: t('investigation.files.size'),
        width: '96px',
        sortField: 'size',
        align: 'end',
        render: (row) => formatBytes(row.size, i18n.language),
      },
      {
        id: 'md5',
        header: 'MD5',
        width: 'minmax(120px, 1fr)',
        render: (row) => (
          <span className="vigil-inv-mono vigil-inv-dim" title={row.md5}>
            {row.md5}
          </span>
        ),
      },
      fileColumns.sightings<WarehouseFile>(t, i18n.language),
      {
        id: 'seen',
        header: t('investigation.warehouse.seen'),
        width: '170px',
        sortField: 'last_seen',
        render: (row) => stackCell(formatDate(row.lastSeen), formatDate(row.firstSeen)),
      },
      fileColumns.company<WarehouseFile>(t, companyName),
      ...(canDownload
        ? [
            {
              id: 'download',
              header: '',
              width: '48px',
              render: (row: WarehouseFile) => (
                <Tooltip label={t('investigation.files.download')} openDelay={300}>
                  <ActionIcon
                    component="a"
                    href={fileDownloadUrl(row.sha256)}
                    download
                    variant="subtle"
                    size="sm"
                    aria-label={t('investigation.files.download')}
                    onClick={(event: React.MouseEvent) => event.stopPropagation()}
                    data-testid="stored-file-download"
                  >
                    <IconDownload size={16} />
                  </ActionIcon>
                </Tooltip>
              ),
            },
          ]
        : []),
    ],
    [t, i18n.language, companyName, canDownload],
  );

  const fields: FilterField<Filters>[] = fileFilters<Filters>(t, model.list);

  return (
    <EventListPage
      section="warehouse"
      model={model}
      columns={columns}
      filters={fields}
      onOpen={(row) => setOpen(row.sha256)}
    >
      <FileDrawer sha256={open} onClose={() => setOpen(null)} />
    </EventListPage>
  );
}
