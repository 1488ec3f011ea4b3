import { z } from 'zod';

/** One field's value before and after a change. */
export const fieldChangeSchema = z.object({ before: z.unknown(), after: z.unknown() });

/** An audit record: who did what to which object, from where, and what changed. */
export const systemLogSchema = z.object({
  id: z.number().int(),
  date_time: z.string(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  /** Set when the change was made by an administrator impersonating `user_id`. */
  impersonator_id: z.number().int().nullable(),
  ip: z.string().nullable(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string().nullable(),
  object_repr: z.string().nullable(),
  company_id: z.number().int(),
  changes: z.record(z.string(), fieldChangeSchema),
});
export type SystemLog = z.infer<typeof systemLogSchema>;

/** What the system log (and a user's timelines, which narrow it) may be ordered by, newest first by default. */
export const systemLogOrderings = ['date_time', 'action', 'object_type', 'username', 'id'] as const;
export const systemLogDefaultOrdering = ['-date_time'] as const;

/** Filters accepted in the body of `POST /api/system_logs/check/`. */
export const systemLogFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    action: z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]).optional(),
    object_type: z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]).optional(),
    object_id: z.union([z.string().max(100), z.array(z.string().max(100)).max(500)]).optional(),
    user_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    company_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    date_time_from: z.iso.datetime({ offset: true }).optional(),
    date_time_to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type SystemLogFilters = z.infer<typeof systemLogFiltersSchema>;
