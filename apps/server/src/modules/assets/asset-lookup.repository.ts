import type { AssetCriticality, AssetKind } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

export interface AssetRefRow {
  value: string;
  id: number;
  name: string;
  kind: AssetKind;
  criticality: AssetCriticality;
}

/**
 * The assets of one company that addresses were at a moment (the claim covering it that began last,
 * else the one last seen before it, as resolve answers) and that host names are (by short name, an
 * asset in use before an archived one). Two statements whatever the number of values.
 */
export async function lookupAssets(
  db: Queryable,
  companyId: number,
  at: string,
  ips: readonly string[],
  hosts: readonly string[],
): Promise<{ ips: AssetRefRow[]; hosts: AssetRefRow[] }> {
  const byIp =
    ips.length === 0
      ? []
      : (
          await db.query<AssetRefRow>(sql`
            SELECT host(u.ip) AS value, r.id, r.name, r.kind, r.criticality
            FROM unnest(${[...ips]}::inet[]) AS u(ip)
            CROSS JOIN LATERAL (
              SELECT a.id, a.name, a.kind, a.criticality FROM asset_ip_hosts h JOIN assets a ON a.id = h.asset_id
              WHERE h.company_id = ${companyId}::int8 AND h.ip = u.ip AND h.first_seen <= ${at}::timestamptz
              ORDER BY (h.last_seen >= ${at}::timestamptz) DESC,
                CASE WHEN h.last_seen >= ${at}::timestamptz THEN h.first_seen ELSE h.last_seen END DESC, h.id DESC
              LIMIT 1
            ) r`)
        ).rows;
  const byHost =
    hosts.length === 0
      ? []
      : (
          await db.query<AssetRefRow>(sql`
            SELECT u.host AS value, r.id, r.name, r.kind, r.criticality
            FROM unnest(${[...hosts]}::text[]) AS u(host)
            CROSS JOIN LATERAL (
              SELECT a.id, a.name, a.kind, a.criticality FROM assets a
              WHERE a.company_id = ${companyId}::int8 AND a.name_key = lower(split_part(u.host, '.', 1))
              ORDER BY a.archived_at IS NOT NULL, a.id LIMIT 1
            ) r`)
        ).rows;
  const ids = (rows: AssetRefRow[]) => rows.map((r) => ({ ...r, id: Number(r.id) }));
  return { ips: ids(byIp), hosts: ids(byHost) };
}
