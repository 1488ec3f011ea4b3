import { Text, Tooltip } from '@mantine/core';
import type { SearchHistogram } from '@vigil/contract';
import { formatDate } from '../../../lib/dates';
import type { Camelize } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';

/**
 * The hits of a search over its time range, one bar an interval; a bar narrows the search to its
 * interval when clicked.
 */
export function SearchHistogramBars({
  histogram,
  onNarrow,
}: {
  histogram: Camelize<SearchHistogram>;
  onNarrow: (range: { from: string; to: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const highest = Math.max(1, ...histogram.buckets.map((bucket) => bucket.count));
  const width = histogram.intervalSeconds * 1000;
  return (
    <div className="vigil-search-histogram" data-testid="search-histogram">
      <Text size="xs" c="dimmed" className="vigil-search-histogram__title">
        {t('search.histogram')} · {t('search.narrowHint')}
      </Text>
      <div className="vigil-search-histogram__bars" role="list">
        {histogram.buckets.map((bucket) => {
          const label = t('search.histogramBar', {
            start: formatDate(bucket.start, 'isoDateTime'),
            count: bucket.count.toLocaleString(i18n.language),
          });
          return (
            <Tooltip key={bucket.start} label={label} withinPortal openDelay={100}>
              <button
                type="button"
                role="listitem"
                className="vigil-search-histogram__bar"
                aria-label={label}
                disabled={bucket.count === 0}
                data-testid="search-histogram-bar"
                data-count={bucket.count}
                onClick={() =>
                  onNarrow({ from: bucket.start, to: new Date(Date.parse(bucket.start) + width).toISOString() })
                }
              >
                <span style={{ height: `${bucket.count === 0 ? 0 : Math.max(4, (bucket.count / highest) * 100)}%` }} />
              </button>
            </Tooltip>
          );
        })}
      </div>
      {histogram.buckets.length > 0 && (
        <div className="vigil-search-histogram__axis">
          <span>{formatDate(histogram.buckets[0]!.start, 'isoDateTime')}</span>
          <span>
            {formatDate(new Date(Date.parse(histogram.buckets.at(-1)!.start) + width).toISOString(), 'isoDateTime')}
          </span>
        </div>
      )}
    </div>
  );
}
