import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    reachable: z.boolean(),
    kind: z.enum(['embedded', 'server']),
    migration: z.string().nullable(),
  }),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
