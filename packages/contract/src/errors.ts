import { z } from 'zod';
import { maintenanceReasons } from './values';

/** Notification a server answer may carry: title, message, type and whether the message is HTML. */
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

/** Any other error answer (401, 403, 404, 409, 413, 5xx; 423 adds `maintenance`, see below). */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  messages: z.array(messageSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorSchema>;

/**
 * 423 answer while the system is being updated: the usual error shape (`code` is `maintenance`)
 * with what is going on. Every /api/ route answers it except the health check.
 */
export const maintenanceErrorSchema = errorSchema.extend({
  code: z.literal('maintenance'),
  maintenance: z.object({
    reason: z.enum(maintenanceReasons),
    /** When maintenance began (ISO 8601), when known. */
    since: z.string().nullable(),
    /** Seconds to wait before trying again. */
    retry_after: z.number().int().positive(),
  }),
});
export type MaintenanceErrorBody = z.infer<typeof maintenanceErrorSchema>;
