export { DetailDrawer } from './detail-drawer';
export type { DetailRead } from './detail-drawer';
export { FilterBar } from './filter-bar';
export type { FilterField } from './filter-bar';
export { ListPage } from './list-page';
export type { ListPageProps, ListTable } from './list-page';
export { usePagedListPage, useScrolledListPage } from './use-list-page';
export type { ListPageModel, ListPageOptions } from './use-list-page';
