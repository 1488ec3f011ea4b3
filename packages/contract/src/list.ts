import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** The query string of `POST /api/<resource>/check/`. */
export const listQuerySchema = z.object({
  page: z.coerce
    .number({ message: 'A page number is a whole number from 1.' })
    .int('A page number is a whole number from 1.')
    .min(1, 'A page number is a whole number from 1.')
    .default(1),
  page_size: z.coerce
    .number({ message: `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}.` })
    .int(`The page size is a whole number from 1 to ${MAX_PAGE_SIZE}.`)
    .min(1, `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}.`)
    .max(MAX_PAGE_SIZE, `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}.`)
    .default(DEFAULT_PAGE_SIZE),
  /** Comma-separated or repeated field names, `-` in front for descending. */
  ordering: z.union([z.string().max(500), z.array(z.string().max(200)).max(10)]).optional(),
  /** Opaque position handed out in `next`/`previous`; lets deep pages skip OFFSET scans. */
  cursor: z.string().max(2000).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A list answer: one page of results and the links that reproduce the neighbouring pages. */
export function listAnswerSchema<T extends z.ZodType>(item: T) {
  return z.object({
    results: z.array(item),
    count: z.number().int().min(0),
    next: z.string().nullable(),
    previous: z.string().nullable(),
  });
}
export interface ListAnswer<T> {
  results: T[];
  count: number;
  next: string | null;
  previous: string | null;
}

export const countAnswerSchema = z.object({ count: z.number().int().min(0) });
export type CountAnswer = z.infer<typeof countAnswerSchema>;
