/** English texts of lists: ranges, pages, selection, filters. */
export const list = {
  range: '{{first}}–{{last}} of {{total}}',
  noRecords: 'No records',
  pageSize: 'Rows per page',
  perPage: '{{size}} / page',
  previous: 'Previous page',
  next: 'Next page',
  selectLoaded: 'Select all loaded rows',
  loadingMore: 'Loading more rows…',
  selectedCount: '{{count}} selected',
  selectAllMatching: 'Select all {{count}} matching',
  allMatchingSelected: 'All {{count}} matching rows are selected',
  clearSelection: 'Clear selection',
  matching: '{{count}} matching',
  moreFilters: 'More filters',
  fewerFilters: 'Fewer filters',
};
