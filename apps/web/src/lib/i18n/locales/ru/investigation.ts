import type { Translation } from '../../types';
import type { investigation as english } from '../en/investigation';

/** Russian texts of the `investigation` namespace. */
export const investigation: Translation<typeof english> = {
  title: 'Расследование',
};
