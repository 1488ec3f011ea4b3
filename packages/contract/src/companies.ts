import { z } from 'zod';

export const companyKinds = ['provider', 'customer'] as const;

export const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(companyKinds),
  /** Brand shown as "<label_name> Managed XDR"; null falls back to the product name. */
  label_name: z.string().nullable(),
  description: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Company = z.infer<typeof companySchema>;

const name = z
  .string({ message: 'A company needs a name.' })
  .trim()
  .min(1, 'A company needs a name.')
  .max(200, 'A company name is at most 200 characters.');

export const companyCreateSchema = z
  .object({
    name,
    label_name: z.string().trim().max(100, 'A label is at most 100 characters.').nullable().optional(),
    description: z.string().trim().max(2000, 'A description is at most 2000 characters.').optional(),
  })
  .strict();
export type CompanyCreate = z.infer<typeof companyCreateSchema>;

export const companyUpdateSchema = companyCreateSchema.partial().extend({ is_active: z.boolean().optional() }).strict();
export type CompanyUpdate = z.infer<typeof companyUpdateSchema>;

export const companyFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    kind: z.union([z.enum(companyKinds), z.array(z.enum(companyKinds)).max(2)]).optional(),
    is_active: z.boolean().optional(),
    id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
  })
  .strict();
