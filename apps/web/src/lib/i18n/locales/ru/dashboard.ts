import type { Translation } from '../../types';
import type { dashboard as english } from '../en/dashboard';

/** Russian texts of the `dashboard` namespace. */
export const dashboard: Translation<typeof english> = {
  title: 'Дашборд',
};
