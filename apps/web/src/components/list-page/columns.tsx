import { VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDate, type DateFormatName } from '../../lib/dates';
import type { Column } from '../list/virtual-table';

/*
 * Columns and cells list pages share. Cells are plain elements (a row is mounted each time it
 * scrolls into view): no hooks, no component per cell; texts are read by the page once per table.
 */

/** A date (and time) in the user's zone, in monospace; `n/a` when there is none. */
export function dateColumn<Row>(
  id: string,
  header: string,
  value: (row: Row) => string | null,
  options: { sortField?: string; format?: DateFormatName; width?: string } = {},
): Column<Row> {
  const { sortField, format = 'isoDateTime', width = format === 'isoDate' ? '120px' : '160px' } = options;
  return {
    id,
    header,
    width,
    sortField,
    render: (row) => {
      const iso = value(row);
      return (
        <time className="vigil-cell-mono" dateTime={iso ?? undefined}>
          {formatDate(iso, format)}
        </time>
      );
    },
  };
}

/** The row's own actions, last; its header is named for screen readers only. */
export function actionsColumn<Row>(header: string, render: (row: Row) => ReactNode, width = '110px'): Column<Row> {
  return { id: 'actions', header: <VisuallyHidden>{header}</VisuallyHidden>, width, align: 'end', render };
}

/** A small text button in a cell (the row's click is not triggered by it). */
export function cellAction({
  label,
  icon,
  danger = false,
  onClick,
  testId,
  ariaLabel,
  title,
}: {
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  onClick: () => void;
  testId?: string;
  ariaLabel?: string;
  /** Shown on hover (an icon without a label). */
  title?: string;
}) {
  return (
    <button
      type="button"
      className="vigil-cell-action"
      data-danger={danger || undefined}
      onClick={onClick}
      data-testid={testId}
      aria-label={ariaLabel}
      title={title}
    >
      {icon}
      {label}
    </button>
  );
}

/** Two lines in one cell: the value, and under it a dimmer detail when there is one. */
export function stackCell(main: ReactNode, detail?: ReactNode, mainClassName?: string) {
  return (
    <span className="vigil-cell-stack">
      <span className={mainClassName}>{main}</span>
      {detail !== undefined && detail !== null && detail !== '' && detail !== false && (
        <span className="vigil-cell-dim">{detail}</span>
      )}
    </span>
  );
}

/** A dimmed dash for a missing value. */
export const noValue = <span className="vigil-cell-dimmed">—</span>;

/** The company a row belongs to, for people who see more than one (null otherwise: no column). */
export function companyColumn<Row extends { companyId: number }>(
  header: string,
  companies: readonly { id: number; name: string }[],
  width = '180px',
): Column<Row> | null {
  if (companies.length <= 1) return null;
  const names = new Map(companies.map((company) => [company.id, company.name]));
  return { id: 'company', header, width, render: (row) => names.get(row.companyId) ?? `#${row.companyId}` };
}

/** The columns that apply (a page leaves some out by who is looking). */
export function presentColumns<Row>(columns: readonly (Column<Row> | null | false)[]): Column<Row>[] {
  return columns.filter((column): column is Column<Row> => Boolean(column));
}
