import type { EndpointEvent } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import type { DetectionContext, DetectionStage } from '../pipeline/detection-stage';
import { dedupKeyOf, type Detection, type DetectionSource, type Observable } from '../pipeline/detections';
import type { StoredEvent } from '../pipeline/stored-events';
import { hitsOfBatch } from './rule-hits';
import {
  loadEnabledRules,
  loadTurnedOff,
  recordRuleHits,
  ruleSetVersion,
  type EngineRule,
} from './rule-engines.repository';
import { SigmaEngine, compileSigmaRule, type CompiledRule, type SigmaRuleInfo } from './sigma';

/*
 * Sigma rules on endpoint events, as a detection stage. The enabled Sigma rules are read from the
 * rule store and compiled once per revision; a company's engine holds the rules in effect for it
 * (its own, and the all-companies rules it has not turned off) and is built once per change of
 * the rule set, shared by companies with the same rules. Per batch the stage asks the store one
 * small question (has anything changed?) and then matches in memory.
 */

/** A stored rule and what it compiled to. */
interface LoadedRule {
  readonly rule: EngineRule;
  readonly compiled: CompiledRule;
}

/** The rules in effect for a company, ready to match. */
interface CompanyEngine {
  readonly engine: SigmaEngine;
  /** The stored rule of each compiled rule the engine can answer. */
  readonly byInfo: ReadonlyMap<SigmaRuleInfo, EngineRule>;
}

/** The rule set of one version of the store. */
interface RuleSet {
  readonly version: string;
  readonly shared: readonly LoadedRule[];
  readonly own: ReadonlyMap<number, readonly LoadedRule[]>;
  readonly turnedOff: ReadonlyMap<number, ReadonlySet<number>>;
  /** Engines by the ids of their rules, shared by companies with the same rules. */
  readonly engines: Map<string, CompanyEngine>;
  readonly byCompany: Map<number, CompanyEngine>;
}

export interface SigmaStageOptions {
  /** Told once per rule revision that could not be compiled (the store should have refused it). */
  onCompileError?: (rule: { id: number; revision: number; title: string }, reason: string) => void;
}

function describeEvent(e: EndpointEvent): string {
  const what = e.event.action ?? (e.event.code ? `event ${e.event.code}` : 'an event');
  return e.event.provider ? `${what} (${e.event.provider})` : what;
}

/** The observables of an endpoint event: host, accounts, processes, files, hashes, addresses, names. */
export function endpointObservables(e: EndpointEvent): Observable[] {
  const out: Observable[] = [];
  const add = (kind: Observable['kind'], value: string | null | undefined, role: string) => {
    if (!value) return;
    for (const o of out) if (o.kind === kind && o.value === value) return;
    out.push({ kind, value, role });
  };
  const account = (name: string | null, domain: string | null) =>
    name ? (domain && !name.includes('\\') && !name.includes('@') ? `${domain}\\${name}` : name) : null;
  add('host', e.host.name, 'host.name');
  for (const ip of e.host.ip) add('ip', ip, 'host.ip');
  if (e.user) add('user', account(e.user.name, e.user.domain), 'user.name');
  if (e.process) {
    add('user', e.process.user, 'process.user');
    add('file', e.process.executable ?? e.process.name, 'process.executable');
    add('hash', e.process.hash.sha256, 'process.hash.sha256');
    add('hash', e.process.hash.sha1, 'process.hash.sha1');
    add('hash', e.process.hash.md5, 'process.hash.md5');
    add('file', e.process.parent?.executable ?? e.process.parent?.name, 'process.parent.executable');
  }
  add('file', e.target_process?.executable ?? e.target_process?.name, 'target_process.executable');
  if (e.target_user) add('user', account(e.target_user.name, e.target_user.domain), 'target_user.name');
  if (e.file) {
    add('file', e.file.path ?? e.file.name, 'file.path');
    add('hash', e.file.hash.sha256, 'file.hash.sha256');
    add('hash', e.file.hash.sha1, 'file.hash.sha1');
    add('hash', e.file.hash.md5, 'file.hash.md5');
  }
  add('ip', e.network?.src_ip, 'network.src_ip');
  add('ip', e.network?.dest_ip, 'network.dest_ip');
  add('domain', e.dns?.question, 'dns.question');
  return out;
}

/** Rules compiled between two turns of the event loop when a rule set is loaded. */
const COMPILE_SLICE = 25;

/** The detection a matching rule raises on an event. */
export function sigmaDetection(
  stored: StoredEvent & { kind: 'endpoint' },
  rule: EngineRule,
  info: SigmaRuleInfo,
): Detection {
  const e = stored.event;
  const source: DetectionSource = {
    type: 'rule',
    engine: 'sigma',
    ruleId: rule.ruleKey,
    revision: rule.revision,
    name: rule.title,
    storedRuleId: rule.id,
    ...(rule.author === '' ? {} : { author: rule.author }),
    ...(rule.licence === '' ? {} : { licence: rule.licence }),
  };
  const host = e.host.name ?? e.host.ip[0] ?? '';
  return {
    companyId: stored.companyId,
    source,
    title: rule.title,
    description: [
      `Sigma rule "${rule.title}" (${rule.ruleKey}) matched ${describeEvent(e)}${host ? ` on ${host}` : ''}.`,
      info.description,
      // Sigma's DRL asks for the author wherever a match is shown; it is shown for every licence.
      rule.author ? `Author: ${rule.author}` : null,
      rule.licence ? `Licence: ${rule.licence}` : null,
      e.process?.command_line ? `Command line: ${e.process.command_line}` : null,
    ]
      .filter((line): line is string => line !== null && line !== '')
      .join('\n'),
    severity: rule.level,
    mitre: [...rule.techniques],
    observables: endpointObservables(e),
    event: { kind: 'endpoint', id: stored.id, ts: stored.ts },
    // Per stored rule and host: a company's own copy of a rule does not fold into the provider's.
    dedupKey: dedupKeyOf(source, [host, `stored:${rule.id}`]),
    occurredAt: e.timestamp,
  };
}

/**
 * The Sigma detection stage. Its state (compiled rules, engines, the version they were built
 * for) belongs to the object the composition root makes, never to the module.
 */
export class SigmaStage implements DetectionStage {
  readonly name = 'sigma';
  private set: RuleSet | null = null;
  private loading: Promise<RuleSet> | null = null;
  /** Compiled rules by stored id, for the revision they were compiled from (null: refused). */
  private readonly compiled = new Map<number, { revision: number; compiled: CompiledRule | null }>();

  constructor(private readonly options: SigmaStageOptions = {}) {}

  async detect(ctx: DetectionContext, events: readonly StoredEvent[]): Promise<Detection[]> {
    let endpoint = false;
    for (const e of events) if (e.kind === 'endpoint') endpoint = true;
    if (!endpoint) return [];
    const set = await this.ruleSet(ctx.tx);
    const company = this.engineFor(set, ctx.companyId);
    if (company.engine.size === 0) return [];
    const detections: Detection[] = [];
    for (const stored of events) {
      if (stored.kind !== 'endpoint') continue;
      for (const match of company.engine.match(stored.event)) {
        const rule = company.byInfo.get(match.rule);
        if (rule) detections.push(sigmaDetection(stored, rule, match.rule));
      }
    }
    await recordRuleHits(ctx.tx, hitsOfBatch(detections));
    return detections;
  }

  /**
   * Reads and compiles the enabled rules now (at start), so that the first batch does not wait for
   * them; batches check the version and load again when the rules changed since.
   */
  async prepare(db: Queryable): Promise<void> {
    await this.ruleSet(db);
  }

  /** The rule set of the store's current version, read and compiled again only when it changed. */
  private async ruleSet(tx: Queryable): Promise<RuleSet> {
    const version = await ruleSetVersion(tx, 'sigma');
    if (this.set?.version === version) return this.set;
    // One reload at a time; a batch that sees a newer version than the one loading reloads again.
    while (this.loading) {
      const loaded = await this.loading.catch(() => null);
      if (loaded?.version === version) return loaded;
    }
    this.loading = this.load(tx, version);
    try {
      this.set = await this.loading;
      return this.set;
    } finally {
      this.loading = null;
    }
  }

  private async load(tx: Queryable, version: string): Promise<RuleSet> {
    // In turn: the statements share the batch's connection.
    const rules = await loadEnabledRules(tx, 'sigma');
    const turnedOff = await loadTurnedOff(tx, 'sigma');
    const shared: LoadedRule[] = [];
    const own = new Map<number, LoadedRule[]>();
    const present = new Set<number>();
    for (const [n, rule] of rules.entries()) {
      present.add(rule.id);
      // Compiling thousands of rules takes seconds: other requests get their turn between rules.
      if (n % COMPILE_SLICE === COMPILE_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
      const compiled = this.compile(rule);
      if (compiled === null) continue;
      const loaded = { rule, compiled };
      if (rule.scope === 'all') shared.push(loaded);
      else {
        let list = own.get(rule.companyId);
        if (list === undefined) own.set(rule.companyId, (list = []));
        list.push(loaded);
      }
    }
    // Rules no longer enabled are compiled again if they come back.
    for (const id of this.compiled.keys()) if (!present.has(id)) this.compiled.delete(id);
    return { version, shared, own, turnedOff, engines: new Map(), byCompany: new Map() };
  }

  private compile(rule: EngineRule): CompiledRule | null {
    const known = this.compiled.get(rule.id);
    if (known?.revision === rule.revision) return known.compiled;
    let compiled: CompiledRule | null = null;
    try {
      compiled = compileSigmaRule(rule.source);
    } catch (error) {
      this.options.onCompileError?.(
        { id: rule.id, revision: rule.revision, title: rule.title },
        error instanceof Error ? error.message : String(error),
      );
    }
    this.compiled.set(rule.id, { revision: rule.revision, compiled });
    return compiled;
  }

  private engineFor(set: RuleSet, companyId: number): CompanyEngine {
    const known = set.byCompany.get(companyId);
    if (known) return known;
    const off = set.turnedOff.get(companyId);
    const rules = [
      ...(off ? set.shared.filter((r) => !off.has(r.rule.id)) : set.shared),
      ...(set.own.get(companyId) ?? []),
    ];
    const key = rules.map((r) => r.rule.id).join(',');
    let engine = set.engines.get(key);
    if (engine === undefined) {
      engine = {
        engine: new SigmaEngine(rules.map((r) => r.compiled)),
        byInfo: new Map(rules.map((r) => [r.compiled.info, r.rule])),
      };
      set.engines.set(key, engine);
    }
    set.byCompany.set(companyId, engine);
    return engine;
  }
}
