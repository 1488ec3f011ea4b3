import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import type { FilterKind, ListPage, ListState } from '../../lib/list';

/**
 * Under a list: which rows are shown of how many, the page size and the pages. The range comes from
 * the page the shown data belongs to, so it stays true while the next page loads.
 */
export function ListFooter<D extends Record<string, FilterKind>>({
  data,
  list,
  pageSizes,
  testId,
}: {
  data: (Pick<ListPage<unknown>, 'count' | 'page' | 'pageSize'> & { results: readonly unknown[] }) | undefined;
  list: ListState<D>;
  pageSizes: readonly number[];
  testId: string;
}) {
  const { t } = useTranslation();
  const count = data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / list.pageSize));
  const first = data && data.results.length > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const last = data ? first + Math.max(data.results.length - 1, 0) : 0;
  return (
    <Group justify="space-between" className="vigil-table__footer" gap="sm">
      <Group gap="sm">
        <Text size="sm" c="dimmed" data-testid={`${testId}-range`}>
          {data ? (count === 0 ? t('list.noRecords') : t('list.range', { first, last, total: count })) : ''}
        </Text>
        <Select
          size="xs"
          w={120}
          aria-label={t('list.pageSize')}
          data={pageSizes.map((size) => ({ value: String(size), label: t('list.perPage', { size }) }))}
          value={String(list.pageSize)}
          onChange={(value) => value && list.setPageSize(Number(value))}
          allowDeselect={false}
        />
      </Group>
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(list.page, pages)}
          onChange={list.setPage}
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? t('list.previous') : control === 'next' ? t('list.next') : control,
          })}
          data-testid={`${testId}-pagination`}
        />
      )}
    </Group>
  );
}
