import { z } from 'zod';

/** A row of an imported CSV file that was left out, and why. */
export const csvImportRejectionSchema = z.object({
  /** 1-based line number in the file (the header is row 1). */
  row: z.number().int(),
  field: z.string(),
  reason: z.string(),
});
export type CsvImportRejection = z.infer<typeof csvImportRejectionSchema>;

/** What a CSV import did: rows that made new objects, rows that changed existing ones, rows left out. */
export const csvImportAnswerSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  rejected: z.array(csvImportRejectionSchema),
});
export type CsvImportAnswer = z.infer<typeof csvImportAnswerSchema>;
