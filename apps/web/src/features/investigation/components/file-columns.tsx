import { detectedFileTypes } from '@vigil/contract/client';
import type { Column } from '../../../components/list';
import { stackCell, type FilterField } from '../../../components/list-page';
import type { TFunction } from '../../../lib/i18n';
import type { FilterKind, ListState } from '../../../lib/list';
import { hashFilterField } from './shared';

interface FileRow {
  filename: string | null;
  sha256: string;
  sightings: number;
  companyId: number;
}

/**
 * The columns and filters the two file lists share (Files by hash and the Warehouse's stored files):
 * the name over the SHA-256, how often it was seen, the company; the hash and type filters.
 */
export const fileColumns = {
  name: <Row extends FileRow>(t: TFunction): Column<Row> => ({
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
  }),
  sightings: <Row extends FileRow>(t: TFunction, language: string): Column<Row> => ({
    id: 'sightings',
    header: t('investigation.files.sightings'),
    width: '112px',
    sortField: 'sightings',
    align: 'end',
    render: (row) => row.sightings.toLocaleString(language),
  }),
  company: <Row extends FileRow>(t: TFunction, companyName: (id: number) => string): Column<Row> => ({
    id: 'company',
    header: t('investigation.common.company'),
    width: 'minmax(100px, 1fr)',
    render: (row) => <span className="vigil-inv-dim">{companyName(row.companyId)}</span>,
  }),
};

/** The hash box (`sha256` in the URL) and the type choice of a file list. */
export function fileFilters<D extends Record<string, FilterKind> & { sha256: 'string'; detectedType: 'strings' }>(
  t: TFunction,
  list: ListState<D>,
): FilterField<D>[] {
  return [
    hashFilterField('sha256' as Extract<keyof D, string>, t('investigation.files.hash'), list, 'filter-hash'),
    {
      kind: 'choice',
      name: 'detectedType' as Extract<keyof D, string>,
      label: t('investigation.files.type'),
      options: detectedFileTypes,
      searchable: true,
    },
  ];
}
