import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { severityScore, type AlertSeverity } from '../pipeline/detections';

// What the later stages of the pipeline (incident grouping, matchers) change on the alerts a batch
// raised: one statement for the whole batch each, in the batch's transaction.

/** An alert joining an incident of its own company. */
export interface AlertIncidentLink {
  company_id: number;
  alert: number;
  incident: number;
}

/** Puts each alert into its incident (grouping rules). */
export async function linkAlertsToIncidents(tx: Queryable, links: readonly AlertIncidentLink[]): Promise<void> {
  await tx.query(sql`
    UPDATE alerts a SET incident_id = l.incident, updated_at = now()
    FROM unnest(${links.map((l) => l.company_id)}::int8[], ${links.map((l) => l.alert)}::int8[],
                ${links.map((l) => l.incident)}::int8[]) AS l(company_id, alert, incident)
    WHERE a.company_id = l.company_id AND a.id = l.alert`);
}

/** What matchers do to one alert; a field left out (undefined) keeps the alert's own. */
export interface MatchedAlertChange {
  company_id: number;
  id: number;
  severity?: AlertSeverity;
  assignee?: number;
  /** Tags added (kept sorted and distinct with the alert's own). */
  tags: string[];
  /** Closed as benign. */
  close?: boolean;
  /** An incident of the alert's company to join (an id naming none is ignored). */
  incident?: number;
}

/** An alert as matchers left it, with the incident it was in before. */
export interface MatchedAlertRow {
  company_id: number;
  id: number;
  severity: string;
  status: string;
  assignee_id: number | null;
  tags: string[];
  incident_id: number | null;
  old_incident: number | null;
}

/** Applies the matchers' changes to the batch's alerts; answers each alert as it is after them. */
export async function applyMatchedChanges(
  tx: Queryable,
  list: readonly MatchedAlertChange[],
): Promise<MatchedAlertRow[]> {
  const { rows } = await tx.query<MatchedAlertRow>(sql`
      UPDATE alerts a SET
        severity = COALESCE(c.severity, a.severity),
        score = COALESCE(c.score, a.score),
        assignee_id = COALESCE(c.assignee, a.assignee_id),
        tags = ARRAY(SELECT DISTINCT t FROM unnest(a.tags || c.tags) t ORDER BY t),
        status = CASE WHEN c.close THEN 'closed' ELSE a.status END,
        resolution = CASE WHEN c.close THEN 'benign' ELSE a.resolution END,
        incident_id = COALESCE((SELECT i.id FROM incidents i WHERE i.company_id = a.company_id AND i.id = c.incident),
                               a.incident_id),
        updated_at = now()
      FROM (SELECT company_id, id, severity, score, assignee, close, incident,
                   ARRAY(SELECT jsonb_array_elements_text(tags)) AS tags
            FROM unnest(${list.map((c) => c.company_id)}::int8[], ${list.map((c) => c.id)}::int8[],
                        ${list.map((c) => c.severity ?? null)}::text[],
                        ${list.map((c) => (c.severity ? severityScore[c.severity] : null))}::int4[],
                        ${list.map((c) => c.assignee ?? null)}::int8[], ${list.map((c) => c.close === true)}::bool[],
                        ${list.map((c) => c.incident ?? null)}::int8[], ${list.map((c) => JSON.stringify(c.tags))}::jsonb[])
                 AS u(company_id, id, severity, score, assignee, close, incident, tags)) c,
           alerts o
      WHERE a.company_id = c.company_id AND a.id = c.id AND o.company_id = a.company_id AND o.id = a.id
      RETURNING a.company_id, a.id, a.severity, a.status, a.assignee_id, a.tags, a.incident_id,
                o.incident_id AS old_incident`);
  return rows;
}
