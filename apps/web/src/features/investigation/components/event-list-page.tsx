import './investigation.css';
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { ListPage, type FilterField, type ListPageModel } from '../../../components/list-page';
import type { FilterKind } from '../../../lib/list';
import { TimeRangeFilter } from './shared';

/** The investigation lists; each has its title, subtitle and empty text under `investigation.<section>`. */
export type EventSection = 'network' | 'endpoint' | 'mail' | 'files' | 'warehouse';

/** Every investigation row is this tall: two lines of text fit. */
const EVENT_ROW_HEIGHT = 46;

/** The filters every investigation list has: a text search and the company; most have a time range. */
type EventFilters = Record<string, FilterKind> & { search: 'string'; companyId: 'numbers' };
type TimeRange = { tsFrom?: string; tsTo?: string };

/**
 * An investigation list: the matching count in the header, filters in the URL, a keyset-scrolled
 * virtual table whose rows open a drawer (or a page), and the page's drawers. A page is its filters,
 * its columns and its drawer body.
 */
export function EventListPage<Row, D extends EventFilters>({
  section,
  model,
  columns,
  filters,
  moreFilters,
  actions,
  onOpen,
  rowHref,
  children,
}: {
  section: EventSection;
  model: ListPageModel<Row, D>;
  columns: readonly Column<Row>[];
  /**
   * The page's own filters. The search box (its placeholder `investigation.<section>.searchPlaceholder`)
   * comes first, then the time range when the list has one (`tsFrom`, `tsTo`); the company comes last.
   */
  filters: readonly FilterField<D>[];
  moreFilters?: readonly FilterField<D>[];
  actions?: ReactNode;
  /** Opens a row (its drawer). */
  onOpen?: (row: Row) => void;
  /** Where a row leads, when it opens a page rather than a drawer. */
  rowHref?: (row: Row) => string;
  /** The drawers. */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const title = t(`investigation.${section}.title`);
  const name = (key: 'search' | 'companyId') => key as Extract<keyof D, string>;
  // The list's time range, where it has one (`timeRange`).
  const range = model.list.filters as TimeRange;
  const timeRange = 'tsFrom' in model.definition.filters;
  const fields: FilterField<D>[] = [
    {
      kind: 'search',
      name: name('search'),
      label: t('common.search'),
      placeholder: t(`investigation.${section}.searchPlaceholder`),
      testId: 'filter-search',
    },
    ...(timeRange
      ? [
          {
            kind: 'custom' as const,
            name: 'time',
            render: () => (
              <TimeRangeFilter
                from={range.tsFrom}
                to={range.tsTo}
                onChange={(next) => model.list.setFilters(next as Parameters<typeof model.list.setFilters>[0])}
              />
            ),
          },
        ]
      : []),
    ...filters,
    { kind: 'company', name: name('companyId'), label: t('investigation.common.company'), testId: 'filter-company' },
  ];
  return (
    <ListPage<Row, D>
      model={model}
      title={title}
      subtitle={
        model.count === undefined
          ? t(`investigation.${section}.subtitle`)
          : t('investigation.common.matching', { total: model.count.toLocaleString(i18n.language) })
      }
      actions={actions}
      filters={fields}
      moreFilters={moreFilters}
      table={{
        columns,
        label: title,
        testId: `${section}-table`,
        rowHeight: EVENT_ROW_HEIGHT,
        onRowClick: onOpen && ((row) => onOpen(row)),
        rowHref,
        empty: (
          <Text c="dimmed" size="sm">
            {t(`investigation.${section}.empty`)}
          </Text>
        ),
        loadFailed: t('investigation.common.loadFailed'),
      }}
    >
      {children}
    </ListPage>
  );
}
