import type { MaintenanceReason } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { migrate, readMigrations, type Migration } from '../../db/migrate';
import { sql } from '../../db/sql';

/** NOTIFY channel on which a change of the maintenance state is announced to every server process. */
export const MAINTENANCE_CHANNEL = 'vigil_maintenance';

/** The system is in maintenance: why, and since when. */
export interface Maintenance {
  reason: MaintenanceReason;
  since: Date | null;
}

/** Whether the maintenance table exists yet (it comes with a migration, and migrations may be pending). */
async function hasMaintenanceTable(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    sql`SELECT to_regclass('maintenance_state') IS NOT NULL AS present`,
  );
  return rows[0]?.present === true;
}

/** The stored maintenance state: null when the system is open (or the table does not exist yet). */
export async function readMaintenance(db: Queryable): Promise<Maintenance | null> {
  if (!(await hasMaintenanceTable(db))) return null;
  const { rows } = await db.query<{ active: boolean; reason: MaintenanceReason; since: Date | null }>(
    sql`SELECT active, reason, since FROM maintenance_state WHERE singleton`,
  );
  const row = rows[0];
  return row?.active ? { reason: row.reason, since: row.since } : null;
}

/**
 * Turns maintenance on or off for every server process: the row changes and a NOTIFY goes out in
 * the same transaction, so the processes hear of it once it is committed. Turning it on keeps the
 * time it began when it was on already. Answers the state now.
 */
export async function switchMaintenance(
  db: Database,
  active: boolean,
  reason: MaintenanceReason = 'administrator',
): Promise<Maintenance | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ active: boolean; reason: MaintenanceReason; since: Date | null }>(sql`
      UPDATE maintenance_state
         SET active = ${active},
             reason = ${reason},
             since = CASE WHEN ${active}::boolean THEN COALESCE(CASE WHEN active THEN since END, now()) END
       WHERE singleton
      RETURNING active, reason, since`);
    await tx.query(sql`SELECT pg_notify(${MAINTENANCE_CHANNEL}, ${active ? 'on' : 'off'})`);
    const row = rows[0];
    return row?.active ? { reason: row.reason, since: row.since } : null;
  });
}

/**
 * Applies pending migrations with the system in maintenance (reason `migration`), so that every
 * running server process answers 423 while the schema changes under it. Maintenance is turned off
 * afterwards unless somebody turned it on by hand. Maintenance for a migration found on at the start
 * was left by a migrating process that stopped half-way (killed, out of memory): this run finishes
 * that work and turns it off, even when nothing is left to apply. Before the migration that creates
 * the maintenance table has run there is nothing to record it in: only the migrating process knows
 * (see the start-up gate).
 */
export async function migrateUnderMaintenance(
  db: Database,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  if (!(await hasMaintenanceTable(db))) return migrate(db, migrations);
  const before = await readMaintenance(db);
  if (before !== null && before.reason !== 'migration') return migrate(db, migrations);
  if (before === null) {
    if (!(await hasPendingMigrations(db, migrations))) return migrate(db, migrations);
    await switchMaintenance(db, true, 'migration');
  }
  try {
    return await migrate(db, migrations);
  } finally {
    await db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        sql`UPDATE maintenance_state SET active = false, since = NULL WHERE singleton AND active AND reason = 'migration'`,
      );
      if (rowCount > 0) await tx.query(sql`SELECT pg_notify(${MAINTENANCE_CHANNEL}, 'off')`);
    });
  }
}

/** Whether any of `migrations` is not applied yet. */
export async function hasPendingMigrations(
  db: Queryable,
  migrations: Migration[] = readMigrations(),
): Promise<boolean> {
  const { rows: present } = await db.query<{ present: boolean }>(
    sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  if (!present[0]?.present) return migrations.length > 0;
  const { rows } = await db.query<{ version: string }>(sql`SELECT version FROM schema_migrations`);
  const applied = new Set(rows.map((row) => row.version));
  return migrations.some((migration) => !applied.has(migration.version));
}
