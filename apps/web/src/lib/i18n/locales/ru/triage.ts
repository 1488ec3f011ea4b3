import type { Translation } from '../../types';
import type { triage as english } from '../en/triage';

/** Russian texts of the `triage` namespace. */
export const triage: Translation<typeof english> = {
  title: 'Разбор',
};
