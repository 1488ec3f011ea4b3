import { Select } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import type { FilterKind, FiltersOf, ListState } from '../../lib/list';
import { FilterControl } from '../list-page';

/** The select's value of "a window of the user's own", with its from and to fields. */
export const CUSTOM_WINDOW = 'custom';
const ANY = '';

/**
 * A list's time window: any time, one of the relative windows (`periods`, each with its name, kept in
 * the filter `period`), or a window of the user's own, whose from and to fields (`from`, `to`: the
 * list's filters) then show beside the select. Choosing any time or a period clears from and to;
 * what choosing a window of one's own does is the page's (`onCustom`).
 */
export function TimeWindowFilter<D extends Record<string, FilterKind> & { period: 'string' }>({
  list,
  periods,
  value,
  from,
  to,
  onCustom,
  onPeriod,
  testId,
}: {
  list: ListState<D>;
  periods: readonly { value: string; label: string }[];
  /** The chosen window: a period, CUSTOM_WINDOW, or undefined for any time. */
  value: string | undefined;
  from: { name: Extract<keyof D, string>; label: string };
  to: { name: Extract<keyof D, string>; label: string };
  onCustom: () => void;
  /** Told when any time or a period is chosen (after the filters change). */
  onPeriod?: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Select
        className="vigil-filters__narrow"
        label={t('triage.timeRange.label')}
        data={[
          { value: ANY, label: t('triage.timeRange.any') },
          ...periods,
          { value: CUSTOM_WINDOW, label: t('triage.timeRange.custom') },
        ]}
        value={value ?? ANY}
        allowDeselect={false}
        onChange={(next) => {
          if (next === CUSTOM_WINDOW) return onCustom();
          const chosen = periods.some((known) => known.value === next) ? next : undefined;
          list.setFilters({ period: chosen, [from.name]: undefined, [to.name]: undefined } as FiltersOf<D>);
          onPeriod?.();
        }}
        data-testid={testId}
      />
      {value === CUSTOM_WINDOW && (
        <>
          <FilterControl field={{ kind: 'dateTime', ...from }} list={list} />
          <FilterControl field={{ kind: 'dateTime', ...to }} list={list} />
        </>
      )}
    </>
  );
}
