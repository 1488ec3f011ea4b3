/** Russian texts of lists: ranges, pages, selection, filters. */
export const list = {
  range: '{{first}}–{{last}} из {{total}}',
  noRecords: 'Нет записей',
  pageSize: 'Строк на странице',
  perPage: '{{size}} на стр.',
  previous: 'Предыдущая страница',
  next: 'Следующая страница',
  selectLoaded: 'Выбрать все загруженные строки',
  loadingMore: 'Загружаем ещё строки…',
  selectedCount: 'Выбрано: {{count}}',
  selectAllMatching: 'Выбрать все подходящие ({{count}})',
  allMatchingSelected: 'Выбраны все подходящие строки: {{count}}',
  clearSelection: 'Снять выбор',
  matching: 'Найдено: {{count}}',
  moreFilters: 'Ещё фильтры',
  fewerFilters: 'Меньше фильтров',
};
