import './investigation.css';
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Column } from '../../../components/list';
import { ListPage, type FilterField, type ListPageModel } from '../../../components/list-page';
import type { FilterKind } from '../../../lib/list';

/** The investigation lists; each has its title, subtitle and empty text under `investigation.<section>`. */
export type EventSection = 'network' | 'endpoint' | 'mail' | 'files';

/** Every investigation row is this tall: two lines of text fit. */
const EVENT_ROW_HEIGHT = 46;

/**
 * An investigation list: the matching count in the header, filters in the URL, a keyset-scrolled
 * virtual table whose rows open a drawer (or a page), and the page's drawers. A page is its filters,
 * its columns and its drawer body.
 */
export function EventListPage<Row, D extends Record<string, FilterKind>>({
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
      filters={filters}
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
