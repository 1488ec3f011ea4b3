import { z } from 'zod';
import { csvImportAnswerSchema, type CsvImportRejection } from './csv-import';
import { ipAddressSchema } from './events';
import { softwareVersionSchema } from './software';
import { assetCriticalityValues, assetCsvColumnValues, assetKindValues, ipHostSourceValues } from './values';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([schema, z.array(schema).max(100)]);
const dateTime = z.iso.datetime({ offset: true, message: 'Give an ISO 8601 date and time.' });

/** What kind of machine an asset is. */
export const assetKinds = assetKindValues;
export const assetKindSchema = z.enum(assetKinds, { message: `The kind is one of ${assetKinds.join(', ')}.` });
export type AssetKind = z.infer<typeof assetKindSchema>;

/** How much the company depends on an asset. */
export const assetCriticalities = assetCriticalityValues;
export const assetCriticalitySchema = z.enum(assetCriticalities, {
  message: `The criticality is one of ${assetCriticalities.join(', ')}.`,
});
export type AssetCriticality = z.infer<typeof assetCriticalitySchema>;

/** Where a claim "this asset held this address" comes from. */
export const ipHostSources = ipHostSourceValues;
export const ipHostSourceSchema = z.enum(ipHostSources, {
  message: `The source is one of ${ipHostSources.join(', ')}.`,
});
export type IpHostSource = z.infer<typeof ipHostSourceSchema>;

/** A MAC address, written with colons or dashes in either case; stored lower case with colons. */
export const macAddressSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}$/, 'A MAC address is six hex pairs, e.g. 00:1a:2b:3c:4d:5e.')
  .transform((mac) => mac.toLowerCase().replaceAll('-', ':'));

export const MAX_ASSET_ADDRESSES = 64;
const assetTag = z.string().trim().min(1, 'A tag must not be empty.').max(100, 'A tag has at most 100 characters.');

export const assetSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  kind: assetKindSchema,
  os_name: z.string(),
  os_version: z.string(),
  ips: z.array(z.string()),
  macs: z.array(z.string()),
  fqdn: z.string(),
  /** The owner: an employee of the asset's company. */
  owner_employee_id: z.number().int().nullable(),
  /** The owner's full name. */
  owner_name: z.string().nullable(),
  unit_id: z.number().int().nullable(),
  criticality: assetCriticalitySchema,
  tags: z.array(z.string()),
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
  /** Who reports the asset: `endpoint:<host>`, `eve:<sensor>`, `manual`, `import`. */
  sources: z.array(z.string()),
  agent_id: z.string(),
  notes: z.string(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

const fields = {
  name: z
    .string({ message: 'An asset needs a name.' })
    .trim()
    .min(1, 'An asset needs a name.')
    .max(255, 'A name has at most 255 characters.'),
  kind: assetKindSchema,
  os_name: z.string().trim().max(200, 'An operating system name has at most 200 characters.'),
  os_version: z.string().trim().max(100, 'A version has at most 100 characters.'),
  ips: z.array(ipAddressSchema).max(MAX_ASSET_ADDRESSES, `At most ${MAX_ASSET_ADDRESSES} addresses.`),
  macs: z.array(macAddressSchema).max(MAX_ASSET_ADDRESSES, `At most ${MAX_ASSET_ADDRESSES} MAC addresses.`),
  fqdn: z.string().trim().max(255, 'A fully qualified name has at most 255 characters.'),
  owner_employee_id: id.nullable(),
  unit_id: id.nullable(),
  criticality: assetCriticalitySchema,
  tags: z.array(assetTag).max(50, 'At most 50 tags.'),
  agent_id: z.string().trim().max(200, 'An agent id has at most 200 characters.'),
  notes: z.string().trim().max(10_000, 'Notes have at most 10,000 characters.'),
};

export const assetCreateSchema = z
  .object({
    name: fields.name,
    kind: fields.kind.optional(),
    os_name: fields.os_name.optional(),
    os_version: fields.os_version.optional(),
    ips: fields.ips.optional(),
    macs: fields.macs.optional(),
    fqdn: fields.fqdn.optional(),
    owner_employee_id: fields.owner_employee_id.optional(),
    unit_id: fields.unit_id.optional(),
    criticality: fields.criticality.optional(),
    tags: fields.tags.optional(),
    agent_id: fields.agent_id.optional(),
    notes: fields.notes.optional(),
    /** The company it belongs to; the caller's own when absent. */
    company_id: id.optional(),
  })
  .strict();
export type AssetCreate = z.infer<typeof assetCreateSchema>;

export const assetUpdateSchema = z.object(fields).partial().strict();
export type AssetUpdate = z.infer<typeof assetUpdateSchema>;

export const assetFiltersSchema = z
  .object({
    /** Name, fully qualified name, operating system, agent id or notes containing the text. */
    search: z.string().trim().max(200).optional(),
    kind: oneOrMany(assetKindSchema).optional(),
    criticality: oneOrMany(assetCriticalitySchema).optional(),
    /** Assets carrying any of these tags. */
    tag: oneOrMany(assetTag).optional(),
    /** true: archived only; false: not archived. */
    archived: z.boolean().optional(),
    /** Assets that hold this address now. */
    ip: ipAddressSchema.optional(),
    unit_id: oneOrMany(id).optional(),
    /** Assets owned by these employees. */
    owner_employee_id: oneOrMany(id).optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type AssetFilters = z.infer<typeof assetFiltersSchema>;

/**
 * One change to many assets: chosen by `ids` or by the list's `filters`, and given a criticality, an
 * owner (an employee of their company; null takes the owner away), tags added or taken away, or the
 * archive.
 */
export const assetBulkSchema = z
  .object({
    ids: z.array(id).min(1, 'Give at least one id.').max(100_000, 'At most 100,000 ids at once.').optional(),
    filters: assetFiltersSchema.optional(),
    criticality: assetCriticalitySchema.optional(),
    owner_employee_id: id.nullable().optional(),
    add_tags: z.array(assetTag).min(1, 'Give at least one tag.').max(50, 'At most 50 tags.').optional(),
    remove_tags: z.array(assetTag).min(1, 'Give at least one tag.').max(50, 'At most 50 tags.').optional(),
    archived: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filters === undefined), {
    message: 'Give either ids or filters.',
    path: ['ids'],
  })
  .refine(
    (b) =>
      b.criticality !== undefined ||
      b.owner_employee_id !== undefined ||
      b.add_tags !== undefined ||
      b.remove_tags !== undefined ||
      b.archived !== undefined,
    { message: 'Say what to change: criticality, owner_employee_id, add_tags, remove_tags or archived.', path: [] },
  );
export type AssetBulk = z.infer<typeof assetBulkSchema>;

export const assetBulkAnswerSchema = z.object({
  /** Assets the change reached (chosen and in the caller's companies). */
  matched: z.number().int().min(0),
  /** Assets that were different before and are changed now. */
  changed: z.number().int().min(0),
});
export type AssetBulkAnswer = z.infer<typeof assetBulkAnswerSchema>;

/** Merge: every asset of `ids` goes into `into` (same company), its addresses, sources and tags with it. */
export const assetMergeSchema = z
  .object({
    into: id,
    ids: z.array(id).min(1, 'Name at least one asset to merge.').max(100, 'At most 100 assets at once.'),
  })
  .strict();
export type AssetMerge = z.infer<typeof assetMergeSchema>;

/**
 * Split: the addresses and sources named leave the asset for a new one, and stay with the new one
 * (discovery does not put them back on the old asset).
 */
export const assetSplitSchema = z
  .object({
    name: fields.name,
    ips: z.array(ipAddressSchema).max(MAX_ASSET_ADDRESSES).optional(),
    macs: z.array(macAddressSchema).max(MAX_ASSET_ADDRESSES).optional(),
    sources: z.array(z.string().trim().min(1).max(300)).max(MAX_ASSET_ADDRESSES).optional(),
  })
  .strict();
export type AssetSplit = z.infer<typeof assetSplitSchema>;

export const assetSplitAnswerSchema = z.object({ from: assetSchema, created: assetSchema });

/** Where imported rows go: the caller's company when nothing is given. */
export const assetImportTargetSchema = z
  .object({ company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() })
  .strict();
export const assetImportJsonSchema = assetImportTargetSchema
  .extend({ csv: z.string({ message: 'Give the CSV text.' }).min(1, 'Give the CSV text.') })
  .strict();

/** Columns of the CSV import, in this order (name required, the others optional and in any order). */
export const assetCsvColumns = assetCsvColumnValues;

export const assetImportAnswerSchema = csvImportAnswerSchema;
export type AssetImportRejection = CsvImportRejection;
export type AssetImportAnswer = z.infer<typeof assetImportAnswerSchema>;

/** A company's internal address ranges: flows inside them make assets. */
export const MAX_COMPANY_NETWORKS = 500;
export const companyNetworksSchema = z.object({
  company_id: z.number().int(),
  cidrs: z.array(z.string()),
});
export type CompanyNetworks = z.infer<typeof companyNetworksSchema>;
export const companyNetworksQuerySchema = z
  .object({ company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() })
  .strict();
export const companyNetworksUpdateSchema = z
  .object({
    company_id: id.optional(),
    cidrs: z
      .array(z.union([z.cidrv4(), z.cidrv6()], { message: 'Give a network as address/prefix, e.g. 10.0.0.0/8.' }))
      .max(MAX_COMPANY_NETWORKS, `At most ${MAX_COMPANY_NETWORKS} networks.`),
  })
  .strict();

export const ipHostSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  asset_id: z.number().int(),
  asset_name: z.string(),
  ip: z.string(),
  mac: z.string().nullable(),
  first_seen: z.string(),
  last_seen: z.string(),
  source: ipHostSourceSchema,
});
export type IpHost = z.infer<typeof ipHostSchema>;

export const ipHostFiltersSchema = z
  .object({
    asset_id: oneOrMany(id).optional(),
    ip: ipAddressSchema.optional(),
    source: oneOrMany(ipHostSourceSchema).optional(),
    /** Claims that cover this moment (first seen at or before, last seen at or after). */
    at: dateTime.optional(),
    /** Claims last seen at or after. */
    seen_from: dateTime.optional(),
    /** Claims first seen at or before. */
    seen_to: dateTime.optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type IpHostFilters = z.infer<typeof ipHostFiltersSchema>;

export const ipHostResolveQuerySchema = z
  .object({
    ip: ipAddressSchema,
    /** The moment; now when absent. */
    at: dateTime.optional(),
    company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

export const ipHostResolveAnswerSchema = z.object({
  asset: assetSchema.nullable(),
  /** The claim the answer rests on. */
  ip_host: ipHostSchema.nullable(),
});

/** An open alert that names the asset: one of its addresses (then or now), its names, or its agent. */
export const assetAlertSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  severity: z.string(),
  status: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
  incident_id: z.number().int().nullable(),
  /** What in the alert names the asset: an address, a host name or the agent id. */
  matched: z.string(),
});

export const assetIncidentSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  severity: z.string(),
  status: z.string(),
  created_at: z.string(),
});

export const assetEventKinds = ['network', 'endpoint', 'mail'] as const;
export const assetEventCountSchema = z.object({
  kind: z.enum(assetEventKinds),
  /** Events of the kind in the last 7 days. */
  count: z.number().int(),
  newest: z.string().nullable(),
});

/** A version installed on the asset: `first_seen` and `last_seen` are those of the install. */
export const assetSoftwareSchema = softwareVersionSchema.pick({
  product_id: true,
  vendor: true,
  name: true,
  version: true,
  first_seen: true,
  last_seen: true,
});

/** One severity's share of the risk: `count` open alerts × `weight` = `points`. */
export const assetRiskPartSchema = z.object({
  severity: z.string(),
  count: z.number().int(),
  weight: z.number(),
  points: z.number(),
});

/** The risk figure: the parts' points summed, times the criticality's factor, rounded. */
export const assetRiskSchema = z.object({
  score: z.number().int(),
  criticality: assetCriticalitySchema,
  factor: z.number(),
  /** The sum of the parts' points, before the factor. */
  alert_points: z.number(),
  parts: z.array(assetRiskPartSchema),
});
export type AssetRisk = z.infer<typeof assetRiskSchema>;

/** A record of the audit log about the asset: who made, changed, merged or split it, and when. */
export const assetHistoryEntrySchema = z.object({
  at: z.string(),
  /** The audit log's action code: `create`, `update`, `merge`… */
  action: z.string(),
  /** Who did it; null for the pipeline's own records (discovery). */
  username: z.string().nullable(),
});

export const assetActivitySchema = z.object({
  alerts: z.array(assetAlertSchema),
  incidents: z.array(assetIncidentSchema),
  events: z.array(assetEventCountSchema),
  ip_history: z.array(ipHostSchema),
  software: z.array(assetSoftwareSchema),
  risk: assetRiskSchema,
  /** The newest records of the audit log about the asset. */
  history: z.array(assetHistoryEntrySchema),
});
export type AssetActivity = z.infer<typeof assetActivitySchema>;

/** At most this many addresses and host names in one asset lookup. */
export const MAX_ASSET_LOOKUP = 100;
const lookupList = <T extends z.ZodTypeAny>(item: T) =>
  z
    .union([item, z.array(item).max(MAX_ASSET_LOOKUP, `At most ${MAX_ASSET_LOOKUP} values.`)])
    .transform((v) => (Array.isArray(v) ? v : [v]) as z.infer<T>[])
    .optional();

/**
 * The assets that the addresses and host names of one company's alert or event were at a moment: what
 * the console links each host and internal address to.
 */
export const assetLookupQuerySchema = z
  .object({
    company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    /** The moment (the event's time); now when absent. */
    at: dateTime.optional(),
    ip: lookupList(ipAddressSchema),
    host: lookupList(z.string().trim().min(1).max(255)),
  })
  .strict();
export type AssetLookupQuery = z.infer<typeof assetLookupQuerySchema>;

/** What a link to an asset shows. */
export const assetRefSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: assetKindSchema,
  criticality: assetCriticalitySchema,
});
export type AssetRef = z.infer<typeof assetRefSchema>;

export const assetLookupAnswerSchema = z.object({
  /** One entry per address or host name that names an asset; the others are left out. */
  found: z.array(z.object({ value: z.string(), kind: z.enum(['ip', 'host']), asset: assetRefSchema })),
});
export type AssetLookupAnswer = z.infer<typeof assetLookupAnswerSchema>;
