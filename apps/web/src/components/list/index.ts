export { ListFooter } from './list-footer';
export { LoadError } from './list-error';
export { SelectionBar } from './selection-bar';
export { useSelection } from './selection';
export type { Selection } from './selection';
export { SortHeader } from './sort-header';
export { useSearchBox } from './use-search-box';
export { VirtualTable } from './virtual-table';
export type { Column, VirtualTableProps } from './virtual-table';
