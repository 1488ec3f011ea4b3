import type { EndpointEvent } from '@vigil/contract';
import { AhoCorasick } from './aho-corasick';
import type { CompiledRule } from './compile';
import { EndpointView } from './fields';
import { eventKeys } from './logsource';
import type { SigmaRuleInfo } from './types';

/*
 * The Sigma engine: rules compiled once, indexed by the events they apply to (logsource.ts),
 * and a prefilter so that an event is evaluated only against the rules that can match it. Each
 * rule has needles, texts of which one must appear in any event it matches (compile.ts); one
 * Aho–Corasick pass over the event's text finds the needles present, and with them the
 * candidate rules. Rules without needles (a regular expression, a number comparison, a
 * negation alone) are evaluated on every event of their bucket. The cost per event depends on
 * the length of its text and the candidates found, not on the number of rules loaded.
 */

export interface SigmaMatch {
  readonly rule: SigmaRuleInfo;
}

interface Bucket {
  /** Rules of the bucket evaluated on every event in it. */
  readonly always: number[];
}

export class SigmaEngine {
  private readonly rules: readonly CompiledRule[];
  private readonly buckets = new Map<string, Bucket>();
  private readonly automaton: AhoCorasick;
  /**
   * Per needle: the rules it may let through, by the bucket (logsource) they belong to, so that
   * an event's needles bring in only rules of its own buckets.
   */
  private readonly needleRules: { bucket: number; rules: number[] }[][];
  /** Bucket numbers by bucket key. */
  private readonly bucketNumbers = new Map<string, number>();
  /** Per rule: the last event (its sequence number) it was a candidate for. */
  private readonly seen: Uint32Array;
  /** Per needle: the last event it was found in (a needle found again adds nothing). */
  private needleSeen: Uint32Array;
  private sequence = 0;
  /** How many times a rule was evaluated on an event, over the engine's life (the prefilter's effect). */
  evaluations = 0;

  constructor(rules: readonly CompiledRule[]) {
    this.rules = rules;
    this.seen = new Uint32Array(rules.length);
    const needleIndex = new Map<string, number>();
    this.needleRules = [];
    rules.forEach((rule, index) => {
      let bucket = this.buckets.get(rule.target.key);
      if (bucket === undefined) {
        bucket = { always: [] };
        this.buckets.set(rule.target.key, bucket);
        this.bucketNumbers.set(rule.target.key, this.bucketNumbers.size);
      }
      if (rule.needles === null) {
        bucket.always.push(index);
        return;
      }
      const bucketNumber = this.bucketNumbers.get(rule.target.key)!;
      for (const needle of rule.needles) {
        let n = needleIndex.get(needle);
        if (n === undefined) {
          n = this.needleRules.length;
          needleIndex.set(needle, n);
          this.needleRules.push([]);
        }
        const byBucket = this.needleRules[n]!;
        let entry = byBucket.find((e) => e.bucket === bucketNumber);
        if (entry === undefined) byBucket.push((entry = { bucket: bucketNumber, rules: [] }));
        // A rule may list the same needle twice (two searches): once is enough.
        if (entry.rules.at(-1) !== index) entry.rules.push(index);
      }
    });
    this.needleSeen = new Uint32Array(this.needleRules.length);
    this.automaton = new AhoCorasick([...needleIndex.keys()]);
  }

  get size(): number {
    return this.rules.length;
  }

  /** How many rules are evaluated on every event of their bucket (they have no needles). */
  get unfiltered(): number {
    let n = 0;
    for (const bucket of this.buckets.values()) n += bucket.always.length;
    return n;
  }

  private applies(rule: CompiledRule, keys: readonly string[], channel: string | null): boolean {
    if (!keys.includes(rule.target.key)) return false;
    return rule.target.channels === null || (channel !== null && rule.target.channels.includes(channel));
  }

  /** The rules the event matches, found by evaluating every rule of its logsources (no prefilter): for checking. */
  matchEveryRule(event: EndpointEvent): SigmaMatch[] {
    const keys = eventKeys(event);
    const view = new EndpointView(event);
    const channel = event.event.channel?.toLowerCase() ?? null;
    return this.rules.filter((r) => this.applies(r, keys, channel) && r.matches(view)).map((r) => ({ rule: r.info }));
  }

  /** The rules the event matches. */
  match(event: EndpointEvent): SigmaMatch[] {
    const keys = eventKeys(event);
    if (keys.length === 0) return [];
    const view = new EndpointView(event);
    const channel = event.event.channel?.toLowerCase() ?? null;
    if (++this.sequence === 0xffffffff) {
      this.seen.fill(0);
      this.needleSeen.fill(0);
      this.sequence = 1;
    }
    const sequence = this.sequence;
    const candidates: number[] = [];
    // The event's buckets, by number: the rules a needle brings in must be in one of them.
    const eventBuckets: number[] = [];
    for (const key of keys) {
      const bucket = this.buckets.get(key);
      if (bucket === undefined) continue;
      eventBuckets.push(this.bucketNumbers.get(key)!);
      for (const index of bucket.always) {
        if (this.seen[index] !== sequence) {
          this.seen[index] = sequence;
          candidates.push(index);
        }
      }
    }
    if (eventBuckets.length === 0) return [];
    const seen = this.seen;
    const needleSeen = this.needleSeen;
    const hit = (needle: number) => {
      if (needleSeen[needle] === sequence) return;
      needleSeen[needle] = sequence;
      for (const entry of this.needleRules[needle]!) {
        if (!eventBuckets.includes(entry.bucket)) continue;
        for (const index of entry.rules) {
          if (seen[index] !== sequence) {
            seen[index] = sequence;
            candidates.push(index);
          }
        }
      }
    };
    if (this.needleRules.length > 0) for (const text of view.texts(false)) this.automaton.search(text, hit);
    // In the order the rules were loaded, whichever way they were found.
    candidates.sort((a, b) => a - b);
    const matches: SigmaMatch[] = [];
    for (const index of candidates) {
      const rule = this.rules[index]!;
      if (!this.applies(rule, keys, channel)) continue;
      this.evaluations++;
      if (rule.matches(view)) matches.push({ rule: rule.info });
    }
    return matches;
  }
}
