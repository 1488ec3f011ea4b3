import { bulkInsert, type BulkColumn } from '../../apps/server/src/db/bulk';
import type { Database } from '../../apps/server/src/db/database';
import { sql } from '../../apps/server/src/db/sql';
import { hashPassword } from '../../apps/server/src/modules/auth/passwords';

export interface SeededCompany {
  id: number;
  name: string;
  /** Share of the seeded log rows that belong to this company. */
  share: number;
}

/** Customer companies and their share of the log; the tenant user belongs to the first (largest). */
const customers = [
  { name: 'Bench Customer Alpha', share: 0.5 },
  { name: 'Bench Customer Beta', share: 0.3 },
  { name: 'Bench Customer Gamma', share: 0.2 },
] as const;

export async function createCustomers(db: Database): Promise<SeededCompany[]> {
  const companies: SeededCompany[] = [];
  for (const customer of customers) {
    const { rows } = await db.query<{ id: number }>(
      sql`INSERT INTO companies (name, kind) VALUES (${customer.name}, 'customer') RETURNING id`,
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`could not create company ${customer.name}`);
    companies.push({ id: Number(id), name: customer.name, share: customer.share });
  }
  return companies;
}

/** A customer-scoped user whose only permission is viewing the system log. */
export async function createTenantUser(
  db: Database,
  companyId: number,
  username: string,
  password: string,
): Promise<number> {
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const role = await tx.query<{ id: number }>(sql`
      INSERT INTO roles (company_id, name, permissions)
      VALUES (${companyId}, 'Bench log reader', ${JSON.stringify([{ basename: 'system_logs', actions: ['view'] }])}::jsonb)
      RETURNING id`);
    const user = await tx.query<{ id: number }>(sql`
      INSERT INTO users (company_id, username, first_name, password_hash, password_changed_at)
      VALUES (${companyId}, ${username}, 'Bench', ${hash}, now())
      RETURNING id`);
    const roleId = role.rows[0]?.id;
    const userId = user.rows[0]?.id;
    if (roleId === undefined || userId === undefined) throw new Error('could not create the tenant user');
    await tx.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${userId}, ${roleId})`);
    return Number(userId);
  });
}

/** Deterministic pseudo-random numbers (mulberry32), so two runs seed the same distribution. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T extends string>(table: readonly (readonly [T, number])[]): (r: number) => T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  return (r) => {
    let point = r * total;
    for (const [value, weight] of table) {
      point -= weight;
      if (point < 0) return value;
    }
    return (table[table.length - 1] as readonly [T, number])[0];
  };
}

/** Actions with a realistic skew: sign-ins dominate, destructive actions are rare. */
export const actionWeights = [
  ['login', 30],
  ['logout', 15],
  ['update', 20],
  ['create', 10],
  ['delete', 3],
  ['assign', 5],
  ['acknowledge', 5],
  ['close', 4],
  ['comment', 4],
  ['export', 1],
  ['isolate', 2],
  ['release', 1],
] as const;

const objectTypes = ['alert', 'incident', 'endpoint', 'role', 'rule', 'report', 'company', 'user', 'ticket'] as const;

const columns: BulkColumn[] = [
  { name: 'company_id', type: 'int8' },
  { name: 'date_time', type: 'timestamptz' },
  { name: 'user_id', type: 'int8' },
  { name: 'username', type: 'text' },
  { name: 'ip', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'object_type', type: 'text' },
  { name: 'object_id', type: 'text' },
  { name: 'object_repr', type: 'text' },
  { name: 'changes', type: 'jsonb' },
];

export interface SeedPlan {
  rows: number;
  companies: readonly SeededCompany[];
  /** Newest row time; rows spread evenly over `days` before it. */
  end: Date;
  days: number;
  chunk: number;
  /** Called after each chunk with the rows inserted so far. */
  progress?: (done: number) => void;
  /** Checked between chunks; seeding stops when it returns true. */
  stop?: () => boolean;
}

/**
 * Seeds `system_logs` in chunks with the server's unnest-based `bulkInsert`. Rows are written in
 * time order (ids grow with time, as in a real log), spread over the companies by share and over
 * 40 users per company; about 3% have no user (system actions).
 */
export async function seedSystemLogs(db: Database, plan: SeedPlan): Promise<number> {
  const next = random(0x76696769);
  const pickAction = weighted(actionWeights);
  const start = plan.end.getTime() - plan.days * 86_400_000;
  const step = (plan.end.getTime() - start) / plan.rows;
  let inserted = 0;
  for (let offset = 0; offset < plan.rows; offset += plan.chunk) {
    if (plan.stop?.()) break;
    const size = Math.min(plan.chunk, plan.rows - offset);
    const rows: unknown[][] = new Array(size);
    for (let i = 0; i < size; i += 1) {
      const index = offset + i;
      let r = next();
      let companyIndex = 0;
      while (companyIndex < plan.companies.length - 1 && r >= (plan.companies[companyIndex]?.share ?? 1)) {
        r -= plan.companies[companyIndex]?.share ?? 0;
        companyIndex += 1;
      }
      const company = plan.companies[companyIndex] as SeededCompany;
      const action = pickAction(next());
      const system = next() < 0.03;
      const userNumber = Math.floor(next() * 40);
      const objectType =
        action === 'login' || action === 'logout'
          ? 'user'
          : (objectTypes[Math.floor(next() * objectTypes.length)] as string);
      const objectId = String(1 + Math.floor(next() * 50_000));
      rows[i] = [
        company.id,
        new Date(Math.min(plan.end.getTime(), start + (index + next()) * step)),
        system ? null : 100_000 + company.id * 1_000 + userNumber,
        system ? null : `analyst${userNumber}@${company.name.split(' ').pop()?.toLowerCase() ?? 'x'}.example`,
        `10.${company.id % 256}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`,
        action,
        objectType,
        objectId,
        `${objectType} ${objectId}`,
        action === 'update'
          ? { status: { before: 'open', after: 'in_progress' }, severity: { before: 'low', after: 'high' } }
          : {},
      ];
    }
    inserted += await bulkInsert(db, 'system_logs', columns, rows, { chunkSize: size });
    plan.progress?.(inserted);
  }
  return inserted;
}
