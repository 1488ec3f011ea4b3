export { ListFooter } from './list-footer';
export { LoadError } from './list-error';
export { SortHeader } from './sort-header';
export { useSearchBox } from './use-search-box';
