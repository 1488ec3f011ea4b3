import type { Translation } from '../../types';
import type { incidents as english } from '../en/incidents';

/** Russian texts of the `incidents` namespace. */
export const incidents: Translation<typeof english> = {
  title: 'Инциденты',
};
