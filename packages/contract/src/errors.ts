import { z } from 'zod';

/** Notification a server answer may carry (spec §3 "Notification message"). */
export const messageSchema = z.object({
  title: z.string(),
  message: z.string(),
  type: z.enum(['success', 'info', 'warning', 'error']),
  use_html: z.boolean().optional(),
});
export type Message = z.infer<typeof messageSchema>;

/** 400 answer: field name → human-readable problems. `non_field_errors` holds the rest. */
export const validationErrorSchema = z.object({
  errors: z.record(z.string(), z.array(z.string())),
  messages: z.array(messageSchema).optional(),
});
export type ValidationErrorBody = z.infer<typeof validationErrorSchema>;

/** Any other error answer (401, 403, 404, 409, 413, 423, 5xx). */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  messages: z.array(messageSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorSchema>;
