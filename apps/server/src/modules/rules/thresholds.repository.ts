import { suricataThresholdFiltersSchema, type SuricataThreshold, type SuricataThresholdFilters } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface ThresholdRow {
  id: number;
  company_id: number;
  entry: string;
  comment: string;
  created_at: Date;
}

const columns = sql`t.id, t.company_id, t.entry, t.comment, t.created_at`;

export const toThreshold = (row: ThresholdRow): SuricataThreshold => ({
  id: Number(row.id),
  company_id: Number(row.company_id),
  entry: row.entry,
  comment: row.comment,
  created_at: row.created_at.toISOString(),
});

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

export const thresholdList: ListResource<ThresholdRow, SuricataThresholdFilters, SuricataThreshold> = {
  from: sql`suricata_thresholds t`,
  select: columns,
  tenantColumn: sql`t.company_id`,
  idField: { expr: sql`t.id`, type: 'int8' },
  filtersSchema: suricataThresholdFiltersSchema,
  filters: {
    search: filter.search(sql`t.entry`, sql`t.comment`),
    company_id: (v) => filter.in<number>(sql`t.company_id`, 'int8')(list(v)),
  },
  orderings: {
    created_at: { expr: sql`t.created_at`, type: 'timestamptz' },
    id: { expr: sql`t.id`, type: 'int8' },
  },
  defaultOrdering: ['-created_at'],
  toItem: toThreshold,
};

export async function findThreshold(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<ThresholdRow | null> {
  const { rows } = await db.query<ThresholdRow>(sql`
    SELECT ${columns} FROM suricata_thresholds t
    WHERE t.id = ${id} AND ${tenantCondition(scope, sql`t.company_id`)} ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export async function insertThreshold(
  tx: Queryable,
  companyId: number,
  entry: string,
  comment: string,
  userId: number | null,
): Promise<ThresholdRow> {
  const { rows } = await tx.query<ThresholdRow>(sql`
    INSERT INTO suricata_thresholds AS t (company_id, entry, comment, created_by)
    VALUES (${companyId}, ${entry}, ${comment}, ${userId}::int8) RETURNING ${columns}`);
  return rows[0]!;
}

export async function updateThreshold(
  tx: Queryable,
  before: ThresholdRow,
  entry: string,
  comment: string,
): Promise<ThresholdRow> {
  const { rows } = await tx.query<ThresholdRow>(sql`
    UPDATE suricata_thresholds AS t SET entry = ${entry}, comment = ${comment}, updated_at = now()
    WHERE t.company_id = ${before.company_id} AND t.id = ${before.id} RETURNING ${columns}`);
  return rows[0]!;
}

export async function deleteThreshold(tx: Queryable, row: ThresholdRow): Promise<void> {
  await tx.query(sql`DELETE FROM suricata_thresholds WHERE company_id = ${row.company_id} AND id = ${row.id}`);
}

/** A company's threshold.config entries, oldest first. */
export async function companyThresholds(db: Queryable, companyId: number): Promise<string[]> {
  const { rows } = await db.query<{ entry: string }>(
    sql`SELECT entry FROM suricata_thresholds WHERE company_id = ${companyId} ORDER BY id`,
  );
  return rows.map((r) => r.entry);
}

/** A text that changes whenever a company's threshold.config entries change. */
export async function thresholdsVersion(db: Queryable, companyId: number): Promise<string> {
  const { rows } = await db.query<{ version: string }>(sql`
    SELECT concat_ws('/', count(*), extract(epoch FROM max(updated_at))::text, max(id)) AS version
    FROM suricata_thresholds WHERE company_id = ${companyId}`);
  return rows[0]!.version;
}
