import { useParams } from '../router';

/** The `:id` of a detail page's address; `valid` only for a positive whole number the server can hold. */
export function useRouteId(): { id: number; valid: boolean } {
  const id = Number(useParams().id);
  return { id, valid: Number.isSafeInteger(id) && id > 0 };
}
