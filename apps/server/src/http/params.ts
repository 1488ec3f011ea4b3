import { z } from 'zod';
import { notFound } from './errors';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/** The numeric `:id` of a path; anything else names nothing, so it is a 404 like any missing object. */
export function pathId(params: unknown, key = 'id'): number {
  const parsed = idParams.safeParse({ id: (params as Record<string, unknown> | null)?.[key] });
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}
