export { orderingField, useList, useListState } from './list';
export type { FilterKind, FiltersOf, ListDefinition, ListPage, ListState } from './list';
