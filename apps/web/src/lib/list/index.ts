export { defineList } from './define';
export type { DeclaredFilters, DefineListOptions } from './define';
export { orderingField, readListState, useList, useListState } from './list';
export type { FilterKind, FiltersOf, ListDefinition, ListPage, ListState } from './list';
export { cursorOf, infiniteListQuery, prefetchInfiniteList, useInfiniteList } from './infinite';
export type { InfiniteList, InfiniteListOptions } from './infinite';
