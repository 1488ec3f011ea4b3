import { z } from 'zod';
import { widgetKinds, widgetSizes, WIDGETS_PER_USER_MAX, WIDGET_PERIOD_MAX_DAYS } from './values';

export const widgetKindSchema = z.enum(widgetKinds, { message: `Kind is one of ${widgetKinds.join(', ')}.` });
export const widgetSizeSchema = z.enum(widgetSizes, { message: `Size is one of ${widgetSizes.join(', ')}.` });

/** Per-widget settings; every field is optional and unknown fields are refused. */
export const widgetSettingsSchema = z.strictObject({
  /** How many rows a top-N widget shows. */
  limit: z.number().int().min(3, 'Show at least 3 rows.').max(25, 'Show at most 25 rows.').optional(),
  /** A title of the user's own instead of the kind's name. */
  title: z.string().trim().max(80, 'A title has at most 80 characters.').optional(),
});
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

/** A widget on the caller's dashboard. */
export const widgetSchema = z.object({
  id: z.number().int(),
  kind: widgetKindSchema,
  size: widgetSizeSchema,
  /** 0-based place on the dashboard. */
  position: z.number().int(),
  settings: widgetSettingsSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Widget = z.infer<typeof widgetSchema>;

export const widgetListSchema = z.object({ results: z.array(widgetSchema), count: z.number().int() });
export type WidgetList = z.infer<typeof widgetListSchema>;

export const widgetCreateSchema = z.strictObject({
  kind: widgetKindSchema,
  size: widgetSizeSchema.optional(),
  settings: widgetSettingsSchema.optional(),
});
export type WidgetCreate = z.infer<typeof widgetCreateSchema>;

export const widgetUpdateSchema = z
  .strictObject({ size: widgetSizeSchema.optional(), settings: widgetSettingsSchema.optional() })
  .refine((v) => v.size !== undefined || v.settings !== undefined, {
    message: 'Change the size or the settings.',
    path: ['size'],
  });
export type WidgetUpdate = z.infer<typeof widgetUpdateSchema>;

/** The whole dashboard at once: every widget of the caller, in the new order, with its size. */
export const widgetLayoutSchema = z.strictObject({
  widgets: z
    .array(z.strictObject({ id: z.number().int().min(1), size: widgetSizeSchema }))
    .max(WIDGETS_PER_USER_MAX, `A dashboard holds at most ${WIDGETS_PER_USER_MAX} widgets.`),
});
export type WidgetLayout = z.infer<typeof widgetLayoutSchema>;

const instant = (label: string) =>
  z.iso.datetime({ offset: true, message: `${label} is a date and time with a zone, e.g. 2026-11-22T10:00:00Z.` });

/** Chart data of one widget kind over a period, bucketed in the caller's time zone. */
export const widgetDataRequestSchema = z
  .strictObject({
    kind: widgetKindSchema,
    from: instant('The start'),
    to: instant('The end'),
    /** IANA zone the hour/day buckets follow, e.g. Europe/Moscow. */
    time_zone: z.string().trim().min(1, 'Give a time zone.').max(64),
    /** Narrow to one company in the caller's scope. */
    company_id: z.number().int().min(1).optional(),
    limit: z.number().int().min(3).max(25).optional(),
  })
  .superRefine((v, ctx) => {
    const from = Date.parse(v.from);
    const to = Date.parse(v.to);
    if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end comes after the start.' });
    else if (to - from > WIDGET_PERIOD_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `A period is at most ${WIDGET_PERIOD_MAX_DAYS} days.` });
  });
export type WidgetDataRequest = z.infer<typeof widgetDataRequestSchema>;

export const widgetBucketUnits = ['hour', 'day'] as const;
export type WidgetBucketUnit = (typeof widgetBucketUnits)[number];

/** One non-empty bucket of a series: the bucket's first instant, a key (severity, source…) and a count. */
export const widgetSeriesPointSchema = z.object({ bucket: z.string(), key: z.string(), value: z.number() });
export type WidgetSeriesPoint = z.infer<typeof widgetSeriesPointSchema>;

export const widgetSeriesDataSchema = z.object({
  shape: z.literal('series'),
  kind: widgetKindSchema,
  unit: z.enum(widgetBucketUnits),
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  /** Every key the series may hold, in display order. */
  keys: z.array(z.string()),
  /** Only buckets with data; the console fills the empty ones. */
  points: z.array(widgetSeriesPointSchema),
});
export type WidgetSeriesData = z.infer<typeof widgetSeriesDataSchema>;

export const widgetCategoryItemSchema = z.object({
  key: z.string(),
  value: z.number(),
  /** A second count where the kind has one (top hosts: alerts naming the host). */
  secondary: z.number().optional(),
});
export type WidgetCategoryItem = z.infer<typeof widgetCategoryItemSchema>;

export const widgetCategoryDataSchema = z.object({
  shape: z.literal('categories'),
  kind: widgetKindSchema,
  /** Items in display order; fixed-key kinds (statuses, severities) list every key, zero or not. */
  items: z.array(widgetCategoryItemSchema),
  total: z.number(),
});
export type WidgetCategoryData = z.infer<typeof widgetCategoryDataSchema>;

export const widgetDurationDataSchema = z.object({
  shape: z.literal('duration'),
  kind: widgetKindSchema,
  /** Seconds from first seen to the moment, over alerts first seen in the period; null without any. */
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  /** Alerts of the period that have reached the moment (acknowledged or resolved). */
  measured: z.number().int(),
  /** Alerts of the period still waiting for it. */
  pending: z.number().int(),
});
export type WidgetDurationData = z.infer<typeof widgetDurationDataSchema>;

export const widgetDataSchema = z.discriminatedUnion('shape', [
  widgetSeriesDataSchema,
  widgetCategoryDataSchema,
  widgetDurationDataSchema,
]);
export type WidgetData = z.infer<typeof widgetDataSchema>;
