import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

/** One row to write: the import's fields with its unit resolved. */
export interface ImportWrite {
  full_name: string;
  emails: string[];
  accounts: string[];
  department: string;
  title: string;
  phone: string;
  unit_id: number | null;
  distinguished_name: string | null;
}

/** The units of a company by lower-case name. */
export async function unitIdsByName(db: Queryable, companyId: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: number; name: string }>(
    sql`SELECT id, lower(name) AS name FROM units WHERE company_id = ${companyId}`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.id)]));
}

/**
 * Writes one chunk of imported rows in one statement: a row holding an account or address of an
 * employee of the company (else the same distinguished name; a row with none of those, the same
 * full name) updates that employee — its accounts and addresses are added to theirs, its other
 * non-empty cells replace theirs, an archived employee comes back — and the other rows are
 * created. Answers the employee id of each row, in the rows' order, and whether it was created.
 */
export async function upsertEmployeeChunk(
  tx: Queryable,
  companyId: number,
  rows: readonly ImportWrite[],
): Promise<{ id: number; created: boolean }[]> {
  await tx.exec(`CREATE TEMP TABLE IF NOT EXISTS employee_import (
    n int4, full_name text, emails text[], accounts text[], department text, title text, phone text,
    unit_id int8, dn text) ON COMMIT DROP`);
  await tx.exec('TRUNCATE employee_import');
  await bulkInsert(
    tx,
    'employee_import',
    [
      { name: 'n', type: 'int4' },
      { name: 'full_name', type: 'text' },
      { name: 'emails', type: 'text[]' },
      { name: 'accounts', type: 'text[]' },
      { name: 'department', type: 'text' },
      { name: 'title', type: 'text' },
      { name: 'phone', type: 'text' },
      { name: 'unit_id', type: 'int8' },
      { name: 'dn', type: 'text' },
    ],
    rows.map((r, n) => [
      n,
      r.full_name,
      r.emails,
      r.accounts,
      r.department,
      r.title,
      r.phone,
      r.unit_id,
      r.distinguished_name,
    ]),
    { chunkSize: 5000 },
  );
  await tx.exec('ANALYZE employee_import');
  // Each row looks its employee up through the indexes; planned from stale statistics of a table
  // that grew in earlier chunks, the lookups would scan the company's employees once per row.
  // (`company_id + 0` below: the array indexes find the few holders of a key and the company
  // filters those; the company's index ANDed in would read every employee of the company.)
  await tx.exec('SET LOCAL enable_seqscan = off');
  const { rows: done } = await tx.query<{ n: number; id: number; created: boolean }>(sql`
    WITH matched AS MATERIALIZED (
      SELECT s.n, m.id FROM employee_import s
      CROSS JOIN LATERAL (
        SELECT c.id FROM (
          SELECT e.id, e.archived_at, 0 AS how FROM employees e
            WHERE cardinality(s.accounts) > 0 AND e.accounts && s.accounts AND (e.company_id + 0) = ${companyId}::int8
          UNION ALL
          SELECT e.id, e.archived_at, 1 FROM employees e
            WHERE cardinality(s.emails) > 0 AND e.emails && s.emails AND (e.company_id + 0) = ${companyId}::int8
          UNION ALL
          SELECT e.id, e.archived_at, 2 FROM employees e
            WHERE s.dn IS NOT NULL AND e.company_id = ${companyId}::int8
              AND lower(e.distinguished_name) = lower(s.dn) AND e.distinguished_name IS NOT NULL
          UNION ALL
          SELECT e.id, e.archived_at, 3 FROM employees e
            WHERE cardinality(s.accounts) = 0 AND cardinality(s.emails) = 0 AND s.dn IS NULL
              AND e.company_id = ${companyId}::int8 AND lower(e.full_name) = lower(s.full_name)
        ) c ORDER BY c.how, c.archived_at IS NOT NULL, c.id LIMIT 1
      ) m
    ), fresh AS MATERIALIZED (
      SELECT s.n, nextval('employees_id_seq')::int8 AS id FROM employee_import s
      WHERE NOT EXISTS (SELECT 1 FROM matched x WHERE x.n = s.n)
    ), changed AS (
      UPDATE employees e SET
        full_name = s.full_name,
        emails = ARRAY(SELECT DISTINCT v FROM unnest(e.emails || s.emails) v ORDER BY v),
        accounts = ARRAY(SELECT DISTINCT v FROM unnest(e.accounts || s.accounts) v ORDER BY v),
        department = CASE WHEN s.department = '' THEN e.department ELSE s.department END,
        title = CASE WHEN s.title = '' THEN e.title ELSE s.title END,
        phone = CASE WHEN s.phone = '' THEN e.phone ELSE s.phone END,
        unit_id = coalesce(s.unit_id, e.unit_id),
        distinguished_name = coalesce(s.dn, e.distinguished_name),
        archived_at = NULL,
        updated_at = now()
      FROM matched x JOIN employee_import s ON s.n = x.n
      WHERE e.id = x.id
      RETURNING e.id
    ), made AS (
      INSERT INTO employees (id, company_id, full_name, emails, accounts, department, title, phone, unit_id,
        distinguished_name)
      SELECT f.id, ${companyId}::int8, s.full_name, s.emails, s.accounts, s.department, s.title, s.phone, s.unit_id, s.dn
      FROM fresh f JOIN employee_import s ON s.n = f.n
      RETURNING id
    )
    SELECT n, id, false AS created FROM matched
    UNION ALL SELECT n, id, true FROM fresh
    ORDER BY n`);
  return done.map((r) => ({ id: Number(r.id), created: r.created }));
}

/**
 * Employees of the company a manager cell may name, when the file itself does not: by
 * distinguished name, full name, address or account (in that order of `how`). One statement;
 * the array lookups filter the company after the array index (`company_id + 0`).
 */
export async function findManagers(
  db: Queryable,
  companyId: number,
  wanted: readonly {
    key: number;
    dn: string | null;
    name: string | null;
    email: string | null;
    account: string | null;
  }[],
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  if (wanted.length === 0) return found;
  const { rows } = await db.query<{ key: number; id: number }>(sql`
    SELECT w.key, m.id FROM unnest(
      ${wanted.map((w) => w.key)}::int4[], ${wanted.map((w) => w.dn)}::text[], ${wanted.map((w) => w.name)}::text[],
      ${wanted.map((w) => w.email)}::text[], ${wanted.map((w) => w.account)}::text[]
    ) AS w(key, dn, name, email, account)
    CROSS JOIN LATERAL (
      SELECT c.id FROM (
        SELECT e.id, e.archived_at, 0 AS how FROM employees e
          WHERE w.dn IS NOT NULL AND e.company_id = ${companyId}::int8 AND e.distinguished_name IS NOT NULL
            AND lower(e.distinguished_name) = lower(w.dn)
        UNION ALL
        SELECT e.id, e.archived_at, 1 FROM employees e
          WHERE w.name IS NOT NULL AND e.company_id = ${companyId}::int8 AND lower(e.full_name) = lower(w.name)
        UNION ALL
        SELECT e.id, e.archived_at, 2 FROM employees e
          WHERE w.email IS NOT NULL AND e.emails @> ARRAY[w.email] AND (e.company_id + 0) = ${companyId}::int8
        UNION ALL
        SELECT e.id, e.archived_at, 3 FROM employees e
          WHERE w.account IS NOT NULL AND e.accounts @> ARRAY[w.account] AND (e.company_id + 0) = ${companyId}::int8
      ) c ORDER BY c.how, c.archived_at IS NOT NULL, c.id LIMIT 1
    ) m`);
  for (const row of rows) found.set(Number(row.key), Number(row.id));
  return found;
}

/** Sets the managers of imported employees (never an employee to themself). Answers how many changed. */
export async function setManagers(
  tx: Queryable,
  companyId: number,
  links: readonly { id: number; manager: number }[],
): Promise<number> {
  if (links.length === 0) return 0;
  const result = await tx.query(sql`
    UPDATE employees e SET manager_id = u.manager, updated_at = now()
    FROM unnest(${links.map((l) => l.id)}::int8[], ${links.map((l) => l.manager)}::int8[]) AS u(id, manager)
    WHERE e.id = u.id AND e.company_id = ${companyId}::int8 AND u.id <> u.manager
      AND e.manager_id IS DISTINCT FROM u.manager`);
  return result.rowCount;
}
