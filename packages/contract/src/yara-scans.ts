import { z } from 'zod';

/** One matched string of a YARA match: its identifier and where in the file it matched. */
export const yaraStringMatchSchema = z.object({
  identifier: z.string(),
  offset: z.number().int(),
  length: z.number().int(),
});

/** A YARA rule that matched a warehouse file, as one company keeps it. */
export const yaraMatchSchema = z.object({
  company_id: z.number().int(),
  rule_id: z.number().int(),
  revision: z.number().int(),
  rule_name: z.string(),
  /** The rule's file, which is its namespace. */
  namespace: z.string(),
  /** The rule's title in the store (null when the rule is gone). */
  title: z.string().nullable(),
  tags: z.array(z.string()),
  /** The rule's meta section (first value of each key), its keys as written. */
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  strings: z.array(yaraStringMatchSchema),
  matched_at: z.string(),
});
export type YaraMatch = z.infer<typeof yaraMatchSchema>;

/** A file's YARA matches and whether it was scanned with the rules enabled now. */
export const fileYaraSchema = z.object({
  /** scanned: with the current rules; pending: not yet (a scan is due); skipped: not scanned, see reason. */
  status: z.enum(['scanned', 'pending', 'skipped']),
  /** Why the file was not scanned (over the size limit, the scan timed out). */
  reason: z.string().nullable(),
  scanned_at: z.string().nullable(),
  matches: z.array(yaraMatchSchema),
});
export type FileYara = z.infer<typeof fileYaraSchema>;

/** How far the background scan of the warehouse is with the rules enabled now. */
export const yaraScanProgressSchema = z.object({
  state: z.enum(['running', 'pending', 'idle']),
  /** Warehouse files, and those scanned (or skipped with a reason) with the current rules. */
  total: z.number().int(),
  scanned: z.number().int(),
  skipped: z.number().int(),
  enabled_rules: z.number().int(),
});
export type YaraScanProgress = z.infer<typeof yaraScanProgressSchema>;
