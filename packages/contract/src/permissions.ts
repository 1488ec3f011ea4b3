import { z } from 'zod';

/** One permission entry as the current user carries it: a resource basename and its allowed actions. */
export const permissionSchema = z.object({
  basename: z.string().trim().min(1).max(100),
  actions: z.array(z.string().trim().min(1).max(50)).max(50),
});
export type Permission = z.infer<typeof permissionSchema>;
