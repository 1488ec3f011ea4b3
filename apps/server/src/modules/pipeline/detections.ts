/**
 * The hand-over types of the detection pipeline (pipeline.ts runs it):
 *
 *   store (ingest)  →  detect (detection stages: Suricata, indicators…)  →  raise (alerts)
 *        →  group (incidents)  →  match (matchers)  →  publish (live updates, after commit)
 *
 * Each stage is its own module; they meet only through the types below (and StoredEvent in
 * stored-events.ts), so each can be built and tested on its own and none imports another.
 * Everything up to and including matchers runs in the batch's transaction: a batch is acknowledged
 * only when its events and the alerts they raised are committed together. Matchers' outgoing
 * actions (mail, webhooks) are queued jobs that run after commit, as are live updates.
 */

export const alertSeverities = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

/** Numeric score of a severity, for sorting and thresholds (0–100). */
export const severityScore: Record<AlertSeverity, number> = { info: 10, low: 30, medium: 50, high: 75, critical: 95 };

export const observableKinds = ['ip', 'host', 'user', 'hash', 'domain', 'url', 'email', 'file'] as const;
export type ObservableKind = (typeof observableKinds)[number];

/** Something an alert is about: an address, a host, an account, a file hash… */
export interface Observable {
  kind: ObservableKind;
  value: string;
  /** Where it was seen in the event, e.g. `src_ip`, `process.hash.sha256`, `mail.from`. */
  role?: string;
}

/** Which stored event a detection came from. */
export interface EventRef {
  kind: 'network' | 'endpoint' | 'mail';
  id: number;
  ts: string;
}

/**
 * What found it: a rule (Suricata signature, Sigma rule, YARA rule) or a policy indicator. A rule's
 * `ruleId` is its own identifier (Suricata sid, Sigma id), `storedRuleId` the rule store's row.
 */
export type DetectionSource =
  | {
      type: 'rule';
      engine: 'suricata' | 'sigma' | 'yara';
      ruleId: string;
      revision?: number;
      name: string;
      /** What the rule says of itself (Suricata's `metadata` keyword: signature_severity, deployment…). */
      metadata?: Record<string, string[]>;
      /** The rule in the rule store (`rules.id`), when the detection came from a stored rule. */
      storedRuleId?: number;
      /** The rule's author and licence: shown with every match when the licence asks for attribution (Sigma's DRL). */
      author?: string;
      licence?: string;
    }
  | { type: 'indicator'; indicatorId: number; indicatorType: string; value: string }
  /** A scheduled (or hand-started) run of a saved search that found hits. */
  | { type: 'search'; savedSearchId: number; name: string };

/** One finding on one event, before deduplication into an alert. */
export interface Detection {
  companyId: number;
  source: DetectionSource;
  title: string;
  description: string;
  severity: AlertSeverity;
  /** MITRE ATT&CK ids where known: tactics (TA0002) first, then techniques (T1059, T1059.001…). */
  mitre: string[];
  observables: Observable[];
  event: EventRef;
  /**
   * Identity for deduplication: the same detection on the same key entities. Detections with
   * the same key inside the deduplication window add to one alert (count, last seen) instead
   * of raising another.
   */
  dedupKey: string;
  occurredAt: string;
}

/** Builds a deduplication key from what found it and the entities that matter for it. */
export function dedupKeyOf(source: DetectionSource, entities: readonly string[]): string {
  const what =
    source.type === 'rule'
      ? `rule:${source.engine}:${source.ruleId}`
      : source.type === 'indicator'
        ? `indicator:${source.indicatorId}`
        : `search:${source.savedSearchId}`;
  return `${what}|${[...entities].sort().join('|')}`;
}

/** A new alert as raised, handed to incident grouping and matchers. */
export interface NewAlert {
  id: number;
  company_id: number;
  title: string;
  severity: AlertSeverity;
  score: number;
  source: EventRef['kind'];
  detection: DetectionSource;
  observables: Observable[];
}
