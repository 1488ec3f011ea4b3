import { z } from 'zod';
import { permissionSchema } from './permissions';

export const roleSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(permissionSchema),
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleCreateSchema = z
  .object({
    name: z.string({ message: 'A role needs a name.' }).trim().min(1, 'A role needs a name.').max(100),
    description: z.string().trim().max(2000).optional(),
    company_id: z.number().int().positive().optional(),
    permissions: z.array(permissionSchema).max(200),
  })
  .strict();
export const roleUpdateSchema = roleCreateSchema.omit({ company_id: true }).partial().strict();
export type RoleCreate = z.input<typeof roleCreateSchema>;
export type RoleUpdate = z.input<typeof roleUpdateSchema>;

export const roleFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    company_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
  })
  .strict();

export const unitSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Unit = z.infer<typeof unitSchema>;

export const unitCreateSchema = z
  .object({
    name: z.string({ message: 'A unit needs a name.' }).trim().min(1, 'A unit needs a name.').max(150),
    description: z.string().trim().max(2000).optional(),
    company_id: z.number().int().positive().optional(),
  })
  .strict();
export const unitUpdateSchema = unitCreateSchema.omit({ company_id: true }).partial().strict();
export type UnitCreate = z.input<typeof unitCreateSchema>;
export type UnitUpdate = z.input<typeof unitUpdateSchema>;
export const unitFiltersSchema = roleFiltersSchema;

/** One entry of `GET /api/roles/catalog/`: a resource kind and every action a role may grant on it. */
export const roleCatalogEntrySchema = z.object({
  basename: z.string(),
  section: z.string(),
  actions: z.array(z.string()),
});
export type RoleCatalogEntry = z.infer<typeof roleCatalogEntrySchema>;
