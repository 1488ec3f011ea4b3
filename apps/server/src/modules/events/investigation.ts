import type { IndicatorVerdict, MailMessage, ProcessNode, Severity } from '@vigil/contract';
import type { IndicatorIndex, LookupKind } from '../indicators/indicator-index';
import { normaliseDomain, normaliseEmail, normaliseFileName } from '../indicators/indicator-values';
import { normaliseUrl } from '../ingest/parsers/urls';

// ---------------------------------------------------------------------------------------------
// Verdicts from the policy indicators
// ---------------------------------------------------------------------------------------------

const severityRank: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

export const UNKNOWN_VERDICT: IndicatorVerdict = { verdict: 'unknown', severity: null, indicator_ids: [] };

/** One observed value to look up, as it appears in an event (normalised here). */
export type Observed =
  | { kind: 'url'; value: string | null | undefined }
  | { kind: 'domain'; value: string | null | undefined }
  | { kind: 'email'; value: string | null | undefined }
  | { kind: 'filename'; value: string | null | undefined }
  | { kind: 'md5' | 'sha1' | 'sha256'; value: string | null | undefined };

function lookups(observed: Observed): Array<[LookupKind, string]> {
  const value = observed.value?.trim();
  if (!value) return [];
  switch (observed.kind) {
    case 'url': {
      const url = normaliseUrl(value);
      if (url === null) return [];
      const host = normaliseDomain(new URL(url).hostname.replace(/^\[|\]$/g, ''));
      return host === null ? [['url', url]] : [['url', url], host.includes(':') ? ['ip', host] : ['domain', host]];
    }
    case 'domain': {
      const domain = normaliseDomain(value);
      return domain === null ? [] : [['domain', domain]];
    }
    case 'email': {
      const email = normaliseEmail(value);
      return email === null ? [] : [['email', email]];
    }
    case 'filename': {
      const name = normaliseFileName(value);
      return name === null ? [] : [['filename', name]];
    }
    default:
      return [[observed.kind, value.toLowerCase()]];
  }
}

/**
 * What the company's live policy indicators say about a set of values, by the ingest rules: a value an
 * ignore indicator matches raises nothing; any other value an alert indicator matches makes the whole
 * set malicious.
 */
export function verdictOf(
  index: IndicatorIndex,
  companyId: number,
  observed: readonly Observed[],
  now = Date.now(),
): IndicatorVerdict {
  const alerting = new Map<number, Severity>();
  const ignoring = new Set<number>();
  for (const item of observed) {
    for (const [kind, value] of lookups(item)) {
      const found = index.candidates(companyId, kind, value, now);
      if (found === null) continue;
      const ignore = found.filter((entry) => entry.policy === 'ignore');
      if (ignore.length > 0) ignore.forEach((entry) => ignoring.add(entry.id));
      else for (const entry of found) alerting.set(entry.id, entry.severity);
    }
  }
  if (alerting.size > 0) {
    const ids = [...alerting.keys()].sort(
      (a, b) => severityRank[alerting.get(b)!] - severityRank[alerting.get(a)!] || a - b,
    );
    return { verdict: 'malicious', severity: alerting.get(ids[0]!)!, indicator_ids: ids };
  }
  if (ignoring.size > 0)
    return { verdict: 'allowed', severity: null, indicator_ids: [...ignoring].sort((a, b) => a - b) };
  return UNKNOWN_VERDICT;
}

/** The worst of several verdicts (malicious over allowed over unknown). */
export function worstVerdict(verdicts: readonly IndicatorVerdict[]): IndicatorVerdict {
  const malicious = verdicts.filter((v) => v.verdict === 'malicious');
  if (malicious.length > 0) {
    const severity = malicious.reduce<Severity>(
      (worst, v) => (v.severity && severityRank[v.severity] > severityRank[worst] ? v.severity : worst),
      'info',
    );
    const ids = [...new Set(malicious.flatMap((v) => v.indicator_ids))];
    return { verdict: 'malicious', severity, indicator_ids: ids };
  }
  const allowed = verdicts.filter((v) => v.verdict === 'allowed');
  if (allowed.length > 0)
    return { verdict: 'allowed', severity: null, indicator_ids: [...new Set(allowed.flatMap((v) => v.indicator_ids))] };
  return UNKNOWN_VERDICT;
}

/** Every value of a mail message the indicators may name: sender, reply-to, URLs, attachments. */
export function mailObserved(message: Partial<MailMessage>): Observed[] {
  return [
    { kind: 'email', value: message.from?.address },
    ...(message.reply_to ?? []).map((r): Observed => ({ kind: 'email', value: r.address })),
    ...(message.urls ?? []).map((url): Observed => ({ kind: 'url', value: url })),
    ...(message.attachments ?? []).flatMap((a): Observed[] => [
      { kind: 'sha256', value: a.sha256 },
      { kind: 'md5', value: a.md5 },
      { kind: 'sha1', value: a.sha1 },
      { kind: 'filename', value: a.filename },
    ]),
  ];
}

// ---------------------------------------------------------------------------------------------
// Process tree
// ---------------------------------------------------------------------------------------------

/** Actions that mean a process started (Sysmon 1 and 4688 become `process-create`; ECS uses `start`, `exec`…). */
const START_ACTIONS = new Set([
  'process-create',
  'process-created',
  'process-start',
  'process-started',
  'start',
  'started',
  'exec',
  'execve',
  'fork',
  'spawn',
  'process_creation',
  'processcreate',
]);

export function isProcessStart(action: string | null): boolean {
  return action !== null && START_ACTIONS.has(action.toLowerCase());
}

/** One endpoint event, as far as the process tree needs it; rows come oldest first. */
export interface ProcessEventRow {
  id: number;
  company_id: number;
  ts: string;
  action: string | null;
  pid: number | null;
  entity_id: string | null;
  parent_pid: number | null;
  parent_entity_id: string | null;
  name: string | null;
  executable: string | null;
  command_line: string | null;
  parent_name: string | null;
  user: string | null;
  md5: string | null;
  sha1: string | null;
  sha256: string | null;
}

interface Building extends ProcessNode {
  order: number;
  parentEntity: string | null;
  eventIds: number[];
}

/** Sysmon writes GUIDs with braces in one place and without in another; compare them bare. */
const entityKey = (companyId: number, id: string) => `${companyId}:${id.replace(/[{}]/g, '').trim().toLowerCase()}`;

export interface BuiltProcessTree {
  processes: Array<ProcessNode & { event_ids: number[] }>;
  truncated: boolean;
}

/**
 * Builds the processes of a host from its events, oldest first. A process is known by its entity id
 * when the source gives one, else by its pid from its start: a start event always begins a new process
 * (pid reuse), and any later event with that pid belongs to the latest process started with it. A child
 * links to its parent by the parent's entity id, else to the most recent process with the parent pid
 * that was known before the child. At most `limit` processes; `rootPid` keeps the subtrees under
 * processes with that pid.
 */
export function buildProcessTree(rows: readonly ProcessEventRow[], limit: number, rootPid?: number): BuiltProcessTree {
  const nodes: Building[] = [];
  const byEntity = new Map<string, Building>();
  const byPid = new Map<string, Building[]>();
  const pidKey = (companyId: number, pid: number) => `${companyId}:${pid}`;
  let truncated = false;

  for (const row of rows) {
    if (row.pid === null && row.entity_id === null) continue;
    const start = isProcessStart(row.action);
    let node: Building | undefined;
    if (row.entity_id !== null) node = byEntity.get(entityKey(row.company_id, row.entity_id));
    else if (!start && row.pid !== null) node = byPid.get(pidKey(row.company_id, row.pid))?.at(-1);
    if (node === undefined) {
      if (nodes.length >= limit) {
        truncated = true;
        continue;
      }
      const order = nodes.length;
      node = {
        key: row.entity_id ?? `${row.pid}@${row.ts}#${order}`,
        parent_key: null,
        company_id: row.company_id,
        pid: row.pid,
        parent_pid: row.parent_pid,
        entity_id: row.entity_id,
        name: row.name,
        executable: row.executable,
        command_line: row.command_line,
        parent_name: row.parent_name,
        user: row.user,
        start: row.ts,
        start_seen: start,
        hashes: { md5: row.md5, sha1: row.sha1, sha256: row.sha256 },
        event_id: row.id,
        event_ts: row.ts,
        event_count: 0,
        alert_ids: [],
        order,
        parentEntity: row.parent_entity_id,
        eventIds: [],
      };
      nodes.push(node);
      if (row.entity_id !== null) byEntity.set(entityKey(row.company_id, row.entity_id), node);
      if (row.pid !== null) {
        const list = byPid.get(pidKey(row.company_id, row.pid));
        if (list) list.push(node);
        else byPid.set(pidKey(row.company_id, row.pid), [node]);
      }
    } else if (start && !node.start_seen) {
      // The start arrived after activity of the same entity (same second, other order): it describes the process best.
      Object.assign(node, {
        start_seen: true,
        event_id: row.id,
        event_ts: row.ts,
        command_line: row.command_line ?? node.command_line,
        parent_pid: row.parent_pid ?? node.parent_pid,
        parent_name: row.parent_name ?? node.parent_name,
        parentEntity: row.parent_entity_id ?? node.parentEntity,
      });
    }
    node.event_count++;
    node.eventIds.push(row.id);
    node.name ??= row.name;
    node.executable ??= row.executable;
    node.command_line ??= row.command_line;
    node.user ??= row.user;
    node.parent_pid ??= row.parent_pid;
    node.parent_name ??= row.parent_name;
    node.parentEntity ??= row.parent_entity_id;
    node.hashes.md5 ??= row.md5;
    node.hashes.sha1 ??= row.sha1;
    node.hashes.sha256 ??= row.sha256;
  }

  for (const node of nodes) {
    let parent: Building | undefined;
    if (node.parentEntity !== null) {
      const candidate = byEntity.get(entityKey(node.company_id, node.parentEntity));
      if (candidate && candidate.order < node.order) parent = candidate;
    }
    if (parent === undefined && node.parent_pid !== null) {
      const candidates = byPid.get(pidKey(node.company_id, node.parent_pid)) ?? [];
      for (let i = candidates.length - 1; i >= 0; i--) {
        if (candidates[i]!.order < node.order) {
          parent = candidates[i];
          break;
        }
      }
    }
    node.parent_key = parent?.key ?? null;
  }

  let kept: Building[] = nodes;
  if (rootPid !== undefined) {
    const keep = new Set<string>();
    for (const node of nodes) {
      if (node.pid === rootPid || (node.parent_key !== null && keep.has(node.parent_key))) keep.add(node.key);
    }
    kept = nodes.filter((node) => keep.has(node.key));
  }
  const keys = new Set(kept.map((node) => node.key));
  return {
    truncated,
    processes: kept.map(({ order: _order, parentEntity: _parentEntity, eventIds, ...node }) => ({
      ...node,
      parent_key: node.parent_key !== null && keys.has(node.parent_key) ? node.parent_key : null,
      event_ids: eventIds,
    })),
  };
}
