import type { EmployeeActivity } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

/** Endpoint actions that are a sign-in (docs/endpoint-ingest.md). */
const SIGN_IN_ACTIONS = ['logon-success', 'logon-failure', 'explicit-credential-logon'];

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The user name part of a stored account: `corp\jdoe` and `jdoe@corp.example` are `jdoe`. */
function bareName(account: string): string {
  const slash = account.lastIndexOf('\\');
  if (slash >= 0) return account.slice(slash + 1);
  const at = account.indexOf('@');
  return at > 0 ? account.slice(0, at) : account;
}

/**
 * What an employee's page shows beside the facts, all in the employee's company: the newest alerts
 * whose observables name one of their accounts (kind `user`) or addresses (kind `email`), messages
 * to their addresses that alerts were raised on, and logons of their user names on endpoints.
 */
export async function employeeActivity(
  db: Queryable,
  employee: { company_id: number; accounts: readonly string[]; emails: readonly string[] },
  limit: number,
): Promise<EmployeeActivity> {
  const company = Number(employee.company_id);
  const observables = [
    ...employee.accounts.map((value) => ({ kind: 'user', value })),
    ...employee.emails.map((value) => ({ kind: 'email', value })),
  ];
  const alerts =
    observables.length === 0
      ? []
      : (
          await db.query<{
            id: number;
            title: string;
            severity: string;
            status: string;
            last_seen: Date;
            matched: string;
          }>(sql`
            SELECT a.id, a.title, a.severity, a.status, a.last_seen,
              (SELECT o->>'value' FROM jsonb_array_elements(a.observables) o
                WHERE lower(o->>'value') = ANY(${observables.map((o) => o.value)}::text[]) LIMIT 1) AS matched
            FROM alerts a
            WHERE a.company_id = ${company}::int8
              AND (${sql.or(
                observables.map((o) => sql`lower(a.observables::text)::jsonb @> ${JSON.stringify([o])}::jsonb`),
              )})
            ORDER BY a.last_seen DESC, a.id DESC LIMIT ${limit}`)
        ).rows;
  const mail =
    employee.emails.length === 0
      ? []
      : (
          await db.query<{
            id: number;
            ts: Date;
            sender: string | null;
            subject: string | null;
            recipient: string;
            alert_ids: number[];
          }>(sql`
            SELECT m.id, m.ts, m.sender, m.subject,
              (SELECT r FROM unnest(m.recipients) r WHERE lower(r) = ANY(${[...employee.emails]}::text[]) LIMIT 1) AS recipient,
              array_agg(DISTINCT l.alert_id ORDER BY l.alert_id) AS alert_ids
            FROM alert_events l
            JOIN mail_messages m ON m.company_id = l.company_id AND m.ts = l.ts AND m.id = l.event_id
            WHERE l.company_id = ${company}::int8 AND l.event_kind = 'mail'
              AND EXISTS (SELECT 1 FROM unnest(m.recipients) r WHERE lower(r) = ANY(${[...employee.emails]}::text[]))
            GROUP BY m.id, m.ts, m.sender, m.subject, m.recipients
            ORDER BY m.ts DESC, m.id DESC LIMIT ${limit}`)
        ).rows;
  const names = [...new Set(employee.accounts.map(bareName))];
  const signIns =
    names.length === 0
      ? []
      : (
          await db.query<{
            id: number;
            ts: Date;
            host_name: string | null;
            action: string | null;
            outcome: string | null;
            user_name: string | null;
            src_ip: string | null;
          }>(sql`
            SELECT e.id, e.ts, e.host_name, e.action, e.outcome, e.user_name, host(e.src_ip) AS src_ip
            FROM endpoint_events e
            WHERE e.company_id = ${company}::int8 AND e.action = ANY(${SIGN_IN_ACTIONS}::text[])
              AND lower(e.user_name) = ANY(${names}::text[])
            ORDER BY e.ts DESC, e.id DESC LIMIT ${limit}`)
        ).rows;
  return {
    alerts: alerts.map((a) => ({ ...a, id: Number(a.id), last_seen: iso(a.last_seen), matched: a.matched ?? '' })),
    malicious_mail: mail.map((m) => ({
      ...m,
      id: Number(m.id),
      ts: iso(m.ts),
      alert_ids: m.alert_ids.map(Number),
    })),
    sign_ins: signIns.map((s) => ({ ...s, id: Number(s.id), ts: iso(s.ts) })),
  };
}
