import type { Translation } from '../../types';
import type { graph as english } from '../en/graph';

/** Russian texts of the `graph` namespace. */
export const graph: Translation<typeof english> = {
  title: 'Граф',
};
