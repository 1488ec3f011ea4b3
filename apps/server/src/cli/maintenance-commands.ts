import type { Command } from 'commander';
import type { Database } from '../db/database';
import { readMaintenance, switchMaintenance, type Maintenance } from '../modules/maintenance/maintenance.repository';

/** How the state reads on the command line. */
export function describeMaintenance(state: Maintenance | null): string {
  if (!state) return 'Maintenance is off: the API answers as usual.';
  const since = state.since ? ` since ${state.since.toISOString()}` : '';
  const why = state.reason === 'migration' ? ' (the database is being migrated)' : '';
  return `Maintenance is on${since}${why}: the API answers 423 except the health check.`;
}

/**
 * `vigil maintenance on|off|status`. The state is kept in the database and announced through
 * NOTIFY, so every server process on a PostgreSQL server follows within moments. An embedded
 * database belongs to one process: stop the server first; it follows the state when it starts.
 */
export function registerMaintenanceCommands(
  program: Command,
  withDatabase: <T>(work: (db: Database) => Promise<T>) => Promise<T>,
): void {
  const maintenance = program
    .command('maintenance')
    .description(
      'put the system in maintenance (the API answers 423, the console shows "System update") or take it out',
    );
  maintenance
    .command('on')
    .description('turn maintenance on: every server process answers 423 to /api/ except the health check')
    .action(async () => {
      console.log(describeMaintenance(await withDatabase((db) => switchMaintenance(db, true))));
    });
  maintenance
    .command('off')
    .description('turn maintenance off')
    .action(async () => {
      console.log(describeMaintenance(await withDatabase((db) => switchMaintenance(db, false))));
    });
  maintenance
    .command('status')
    .description('show whether maintenance is on')
    .action(async () => {
      console.log(describeMaintenance(await withDatabase((db) => readMaintenance(db))));
    });
}
