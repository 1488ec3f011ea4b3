import './list-page.css';
import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FilterKind } from '../../lib/list';
import { ListFooter } from '../list/list-footer';
import { LoadError } from '../list/list-error';
import { SelectionBar } from '../list/selection-bar';
import { VirtualTable, type VirtualTableProps } from '../list/virtual-table';
import { PageHeader } from '../ui/page-header';
import { FilterBar, type FilterField } from './filter-bar';
import type { ListPageModel } from './use-list-page';

/** How a list page's table looks and what its rows do (as the virtual table takes them). */
export interface ListTable<Row> extends Pick<
  VirtualTableProps<Row>,
  'columns' | 'rowHeight' | 'rowLabel' | 'rowClassName' | 'rowHref' | 'onRowClick' | 'rowTestId'
> {
  /** Accessible name of the table. */
  label: string;
  /** `data-testid` of the table (which carries `data-loading` while a read is under way). */
  testId: string;
  /** Shown instead of rows when none match. */
  empty: ReactNode;
  /** Said when the list could not be read. */
  loadFailed: string;
}

export interface ListPageProps<Row, D extends Record<string, FilterKind>> {
  model: ListPageModel<Row, D>;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Buttons at the header's end (create…). */
  actions?: ReactNode;
  /** Between the header and the filters (tabs). */
  above?: ReactNode;
  filters?: readonly FilterField<D>[];
  /** A second row of filters. */
  secondFilters?: readonly FilterField<D>[];
  /** Filters folded away until asked for. */
  moreFilters?: readonly FilterField<D>[];
  keepOnReset?: readonly string[];
  table: ListTable<Row>;
  /** Bulk actions, in the bar shown while rows are selected (the model must be `selectable`). */
  bulkActions?: ReactNode;
  /** Whether "select all N matching" is offered (the bulk endpoint takes a filter). */
  selectAllMatching?: boolean;
  /** Prefix of the footer's test ids (`<prefix>-range`, `<prefix>-pagination`) on paged lists. */
  footerTestId?: string;
  /** Drawers and dialogs of the page. */
  children?: ReactNode;
}

/**
 * The frame every list page shares: header, filters bound to the URL, the load error with a retry,
 * the selection bar, a virtual table with a keyboard cursor, and on paged lists the range and pages.
 * A page declares its filters and columns and adds its drawers; the rest is here.
 */
export function ListPage<Row, D extends Record<string, FilterKind>>({
  model,
  title,
  subtitle,
  actions,
  above,
  filters,
  secondFilters,
  moreFilters,
  keepOnReset,
  table,
  bulkActions,
  selectAllMatching = true,
  footerTestId,
  children,
}: ListPageProps<Row, D>) {
  // Read by numbered pages (no way to read further by scrolling): a footer with the range and pages.
  const paged = model.loadMore === undefined;
  const selectable = bulkActions !== undefined;
  const failed = model.error !== undefined && model.error !== null;
  const { label, testId, loadFailed, ...rowOptions } = table;
  return (
    <Stack gap="md" className="vigil-list-page">
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {above}
      {filters && (
        <FilterBar
          definition={model.definition}
          list={model.list}
          fields={filters}
          second={secondFilters}
          more={moreFilters}
          keepOnReset={keepOnReset}
        />
      )}
      {failed && <LoadError message={loadFailed} onRetry={model.retry} />}
      {selectable && (
        <SelectionBar selection={model.selection as never} count={model.count} allowAllMatching={selectAllMatching}>
          {bulkActions}
        </SelectionBar>
      )}
      <div className="vigil-list-page__table" data-testid={testId} data-loading={model.fetching}>
        <VirtualTable<Row>
          {...rowOptions}
          rows={model.rows}
          rowKey={rowKeyOf}
          ariaLabel={label}
          total={paged ? undefined : model.count}
          ordering={model.list.ordering}
          onSort={model.list.toggleOrdering}
          selection={selectable ? (model.selection as never) : undefined}
          rowId={selectable ? rowIdOf : undefined}
          rowSelectable={model.canSelect}
          activeIndex={model.activeIndex}
          onActiveIndexChange={model.setActiveIndex}
          hasMore={model.hasMore}
          loadMore={model.loadMore}
          loading={model.loading}
          loadingMore={model.loadingMore}
          bottomGap={paged ? PAGED_BOTTOM_GAP : undefined}
          fitRows={paged}
        />
        {paged && (
          <ListFooter
            data={model.page}
            list={model.list}
            pageSizes={model.definition.pageSizes}
            testId={footerTestId ?? testId}
          />
        )}
      </div>
      {children}
    </Stack>
  );
}

/** Room under a paged table for its footer (px). */
const PAGED_BOTTOM_GAP = 72;

function rowKeyOf(row: unknown): number | string {
  return (row as { id: number | string }).id;
}

function rowIdOf(row: unknown): number {
  return (row as { id: number }).id;
}
