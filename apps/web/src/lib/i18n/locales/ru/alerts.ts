import type { Translation } from '../../types';
import type { alerts as english } from '../en/alerts';

/** Russian texts of the `alerts` namespace. */
export const alerts: Translation<typeof english> = {
  title: 'Оповещения',
};
