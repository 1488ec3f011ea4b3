import { z } from 'zod';

/** The software catalogue of a company: products, their versions, and which hosts run them. */

const oneOrMany = <T extends z.ZodType>(item: T, max = 500) => z.union([item, z.array(item).max(max)]);
const instant = z.iso.datetime({ offset: true, message: 'Give an ISO 8601 date and time.' });

export const softwareProductSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  vendor: z.string(),
  name: z.string(),
  /** When the product was first seen anywhere in the company's estate. */
  first_seen: z.string(),
  last_seen: z.string(),
  version_count: z.number().int(),
  /** Hosts that run some version of it now (installs not reported removed). */
  install_count: z.number().int(),
});
export type SoftwareProduct = z.infer<typeof softwareProductSchema>;

export const softwareFiltersSchema = z
  .object({
    /** Vendor or name contains this. */
    search: z.string().trim().max(200).optional(),
    company_id: oneOrMany(z.number().int()).optional(),
    /** Vendor contains this. */
    vendor: z.string().trim().min(1).max(200).optional(),
    /** Name contains this. */
    name: z.string().trim().min(1).max(200).optional(),
    /** New software in the estate: first seen at or after this. */
    first_seen_from: instant.optional(),
    id: oneOrMany(z.number().int()).optional(),
  })
  .strict();
export type SoftwareFilters = z.infer<typeof softwareFiltersSchema>;

export const softwareVersionSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  product_id: z.number().int(),
  vendor: z.string(),
  name: z.string(),
  version: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
  /** Hosts that run this version now. */
  asset_count: z.number().int(),
});
export type SoftwareVersion = z.infer<typeof softwareVersionSchema>;

export const softwareVersionFiltersSchema = z
  .object({
    /** Vendor, name or version contains this. */
    search: z.string().trim().max(200).optional(),
    company_id: oneOrMany(z.number().int()).optional(),
    product_id: oneOrMany(z.number().int()).optional(),
    /** The version string, exactly. */
    version: z.string().trim().min(1).max(200).optional(),
    first_seen_from: instant.optional(),
    id: oneOrMany(z.number().int()).optional(),
  })
  .strict();
export type SoftwareVersionFilters = z.infer<typeof softwareVersionFiltersSchema>;

/** Sources of an install: the inventory format that reported it, or a process image seen running. */
export const softwareSources = [
  'ecs',
  'osquery_programs',
  'osquery_deb_packages',
  'osquery_rpm_packages',
  'osquery_apps',
  'process',
] as const;
export type SoftwareSource = (typeof softwareSources)[number];

export const softwareInstallSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  version_id: z.number().int(),
  /** The company's asset whose short name is the host's first label, if there is one. */
  asset_id: z.number().int().nullable(),
  host_name: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
  removed_at: z.string().nullable(),
  source: z.string(),
});
export type SoftwareInstall = z.infer<typeof softwareInstallSchema>;

export const softwareInstallFiltersSchema = z
  .object({
    /** Host name contains this. */
    search: z.string().trim().max(200).optional(),
    company_id: oneOrMany(z.number().int()).optional(),
    /** The assets of a version: installs of these versions. */
    version_id: oneOrMany(z.number().int()).optional(),
    product_id: oneOrMany(z.number().int()).optional(),
    /** Installs on this host (any letter case). */
    host_name: z.string().trim().min(1).max(255).optional(),
    /** Installs on these assets (hosts whose first label is the asset's short name). */
    asset_id: oneOrMany(z.number().int().min(1)).optional(),
    /** false (default): installed now; true: reported removed. */
    removed: z.boolean().optional(),
  })
  .strict();
export type SoftwareInstallFilters = z.infer<typeof softwareInstallFiltersSchema>;
