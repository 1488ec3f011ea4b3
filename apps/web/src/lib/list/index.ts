export { orderingField, useList, useListState } from './list';
export type { FilterKind, FiltersOf, ListDefinition, ListState } from './list';
