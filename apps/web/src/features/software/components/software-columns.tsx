import type { TFunction } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { companyColumn, dateColumn, presentColumns, stackCell } from '../../../components/list-page';
import { Link } from '../../../lib/router';
import { productPath } from '../api/software';

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** A count, right-aligned in monospace. */
export const countCell = (value: number) => <span className="vigil-cell-mono">{value}</span>;

interface SoftwareRow {
  name: string;
  vendor: string;
  firstSeen: string;
  lastSeen: string;
  companyId: number;
}

/**
 * The columns a software list shares: the product (a link to its page, the vendor below), then the
 * list's own columns, then first and last seen and the company.
 */
export function softwareColumns<Row extends SoftwareRow>(
  t: TFunction,
  companies: readonly { id: number; name: string }[],
  options: { productId: (row: Row) => number; nameHeader: string; own: Column<Row>[]; lastSeenSort?: string },
): Column<Row>[] {
  const noVendor = t('software.noVendor');
  return presentColumns<Row>([
    {
      id: 'name',
      header: options.nameHeader,
      width: 'minmax(220px, 2fr)',
      sortField: 'name',
      render: (row) =>
        stackCell(
          <Link to={productPath(options.productId(row))} className="vigil-row__name" onClick={stop}>
            {row.name}
          </Link>,
          row.vendor || noVendor,
        ),
    },
    ...options.own,
    dateColumn<Row>('firstSeen', t('software.fields.firstSeen'), (row) => row.firstSeen, { sortField: 'first_seen' }),
    dateColumn<Row>('lastSeen', t('software.fields.lastSeen'), (row) => row.lastSeen, {
      sortField: options.lastSeenSort,
    }),
    companyColumn<Row>(t('software.fields.company'), companies, '130px'),
  ]);
}
