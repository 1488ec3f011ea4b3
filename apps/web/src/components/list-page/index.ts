export { DetailDrawer, DetailSection, KeyValues } from './detail-drawer';
export type { DetailRead } from './detail-drawer';
export { FilterBar, FilterControl, SearchFilter } from './filter-bar';
export type { FilterField } from './filter-bar';
export { ListPage } from './list-page';
export type { ListPageProps, ListTable } from './list-page';
export { useAddToFilter, usePagedListPage, useScrolledListPage } from './use-list-page';
export type { ListPageModel, ListPageOptions, ScrolledListPageOptions } from './use-list-page';
export { actionsColumn, cellAction, companyColumn, dateColumn, noValue, presentColumns, stackCell } from './columns';
