import type { EndpointEvent } from '@vigil/contract';
import { AhoCorasick } from './aho-corasick';
import type { CompiledRule } from './compile';
import { EndpointView } from './fields';
import { eventKeys } from './logsource';
import type { SigmaRuleInfo } from './types';

/*
 * The Sigma engine: rules compiled once, indexed by the events they apply to (logsource.ts),
 * and a prefilter so that an event is evaluated only against the rules that can match it. Each
 * rule has needles: clauses of texts, every clause with one text present in any event the rule
 * matches (needles.ts). One Aho–Corasick pass over the event's text finds the needles present.
 * Each rule is brought in by one of its clauses, the one whose texts the fewest rules share (a
 * text many rules use, like `\powershell.exe`, is in many events too), and evaluated only when
 * every other clause has a text present as well (texts of one or two characters are not looked
 * for by the automaton: they are in nearly every event, and are checked by a plain search for the
 * few rules that get that far). Rules without needles (a regular expression, a
 * number comparison, a negation alone) are evaluated on every event of their bucket. The cost
 * per event depends on the length of its text and the candidates found, not on the number of
 * rules loaded.
 */

export interface SigmaMatch {
  readonly rule: SigmaRuleInfo;
}

interface Bucket {
  /** Rules of the bucket evaluated on every event in it (their clauses, if any, still checked). */
  readonly always: number[];
}

/**
 * A clause checked before a rule is evaluated: present when one of its needles is. The needles the
 * automaton looks for are marked during its pass; a short one is looked up in the event's text
 * only for the few rules that reach this check.
 */
interface ClauseCheck {
  /** Needles the automaton finds, by number. */
  readonly marked: Int32Array;
  /** Short needles, by the place of their mark (a character's code, or `pairKey`). */
  readonly places: Int32Array;
  /**
   * Two-character needles with a character outside ASCII, as pairs of character codes: present
   * when both characters are (in excess, as a prefilter may be).
   */
  readonly pairs: Int32Array;
}

/**
 * Needles shorter than this (`\\`, `.`, `+`) are in nearly every event: the automaton would report
 * them at almost every character. They never bring a rule in, and are checked by a plain search.
 */
const SHORT_NEEDLE = 3;

const byNumber = (a: number, b: number) => a - b;

/**
 * Where a pair of ASCII characters is marked among the short needles' marks, after the 0x10000
 * marks of single characters; -1 for a pair with another character (searched for in the text).
 */
const pairKey = (a: number, b: number) => (a < 0x80 && b < 0x80 ? 0x10000 + ((a << 7) | b) : -1);

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
  /** Per rule: the clauses other than the one that brings it in (null: none). */
  private readonly checks: (readonly ClauseCheck[] | null)[];
  /** Per rule: the last event (its sequence number) it was a candidate for. */
  private readonly seen: Uint32Array;
  /** Per needle: the last event it was found in (a needle found again adds nothing). */
  private needleSeen: Uint32Array;
  private sequence = 0;
  /**
   * The characters and the pairs of ASCII characters of the event being matched, marked with its
   * sequence number when a rule first needs a short needle.
   */
  private readonly shortMarks = new Uint32Array(0x10000 + 0x4000);
  private shortMarked = 0;
  /** Rules with no needles at all. */
  private readonly withoutNeedles: number;
  /** How many times a rule was evaluated on an event, over the engine's life (the prefilter's effect). */
  evaluations = 0;

  constructor(rules: readonly CompiledRule[]) {
    this.rules = rules;
    this.seen = new Uint32Array(rules.length);
    const needleIndex = new Map<string, number>();
    const numberOf = (needle: string) => {
      let n = needleIndex.get(needle);
      if (n === undefined) {
        n = needleIndex.size;
        needleIndex.set(needle, n);
        this.needleRules.push([]);
      }
      return n;
    };
    // How many rules use each text: the more, the more common it is in events too.
    const uses = new Map<string, number>();
    for (const rule of rules)
      for (const needle of new Set(rule.needles?.flat() ?? [])) uses.set(needle, (uses.get(needle) ?? 0) + 1);
    // A short text is in nearly every event: such a clause brings a rule in last.
    const cost = (clause: readonly string[]) =>
      clause.reduce(
        (sum, n) => sum + uses.get(n)! + (n.length < SHORT_NEEDLE ? 100_000 : n.length < 6 ? 6 - n.length : 0),
        0,
      );
    const check = (clause: readonly string[]): ClauseCheck => {
      const distinct = [...new Set(clause)];
      const place = (n: string) => (n.length === 1 ? n.charCodeAt(0) : pairKey(n.charCodeAt(0), n.charCodeAt(1)));
      const short = distinct.filter((n) => n.length < SHORT_NEEDLE);
      return {
        marked: Int32Array.from(
          distinct.filter((n) => n.length >= SHORT_NEEDLE),
          numberOf,
        ),
        places: Int32Array.from(
          short.filter((n) => place(n) >= 0),
          place,
        ),
        pairs: Int32Array.from(short.filter((n) => place(n) < 0).flatMap((n) => [n.charCodeAt(0), n.charCodeAt(1)])),
      };
    };
    this.needleRules = [];
    let withoutNeedles = 0;
    this.checks = rules.map((rule, index) => {
      let bucket = this.buckets.get(rule.target.key);
      if (bucket === undefined) {
        bucket = { always: [] };
        this.buckets.set(rule.target.key, bucket);
        this.bucketNumbers.set(rule.target.key, this.bucketNumbers.size);
      }
      if (rule.needles === null) {
        withoutNeedles++;
        bucket.always.push(index);
        return null;
      }
      const bucketNumber = this.bucketNumbers.get(rule.target.key)!;
      const clauses = [...rule.needles].sort((a, b) => cost(a) - cost(b));
      let rest = clauses;
      if (clauses[0]!.every((n) => n.length >= SHORT_NEEDLE)) {
        for (const needle of clauses[0]!) {
          const byBucket = this.needleRules[numberOf(needle)]!;
          let entry = byBucket.find((e) => e.bucket === bucketNumber);
          if (entry === undefined) byBucket.push((entry = { bucket: bucketNumber, rules: [] }));
          // A clause may list the same needle twice: once is enough.
          if (entry.rules.at(-1) !== index) entry.rules.push(index);
        }
        rest = clauses.slice(1);
      } else {
        // Every clause has a short text: the rule is a candidate on every event of its bucket, and
        // its clauses are checked before it is evaluated.
        bucket.always.push(index);
      }
      return rest.length > 0 ? rest.map(check) : null;
    });
    this.withoutNeedles = withoutNeedles;
    this.needleSeen = new Uint32Array(this.needleRules.length);
    // The automaton knows every needle's number; short ones are given as empty (never found by it).
    this.automaton = new AhoCorasick([...needleIndex.keys()].map((n) => (n.length < SHORT_NEEDLE ? '' : n)));
  }

  get size(): number {
    return this.rules.length;
  }

  /** How many rules are evaluated on every event of their bucket (they have no needles). */
  get unfiltered(): number {
    return this.withoutNeedles;
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

  /** Whether a clause has a needle in the event being matched (`sequence`). */
  private present(clause: ClauseCheck, sequence: number, view: EndpointView): boolean {
    const needleSeen = this.needleSeen;
    const marked = clause.marked;
    for (let i = 0; i < marked.length; i++) if (needleSeen[marked[i]!] === sequence) return true;
    const places = clause.places;
    const pairs = clause.pairs;
    if (places.length === 0 && pairs.length === 0) return false;
    const shortMarks = this.shortMarks;
    // The event's characters and pairs are marked once, when a rule first needs them.
    if (this.shortMarked !== sequence) {
      this.shortMarked = sequence;
      for (const text of view.texts(false)) {
        let previous = -1;
        for (let i = 0; i < text.length; i++) {
          const c = text.charCodeAt(i);
          shortMarks[c] = sequence;
          if (previous >= 0 && previous < 0x80 && c < 0x80) shortMarks[0x10000 + ((previous << 7) | c)] = sequence;
          previous = c;
        }
      }
    }
    for (let i = 0; i < places.length; i++) if (shortMarks[places[i]!] === sequence) return true;
    for (let i = 0; i < pairs.length; i += 2)
      if (shortMarks[pairs[i]!] === sequence && shortMarks[pairs[i + 1]!] === sequence) return true;
    return false;
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
      this.shortMarks.fill(0);
      this.shortMarked = 0;
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
    // Every needle present is marked first; then the rules their clauses bring in.
    const found: number[] = [];
    if (this.needleRules.length > 0)
      for (const text of view.texts(false)) this.automaton.collect(text, needleSeen, sequence, found);
    for (let f = 0; f < found.length; f++) {
      const entries = this.needleRules[found[f]!]!;
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e]!;
        if (!eventBuckets.includes(entry.bucket)) continue;
        const rules = entry.rules;
        for (let r = 0; r < rules.length; r++) {
          const index = rules[r]!;
          if (seen[index] !== sequence) {
            seen[index] = sequence;
            candidates.push(index);
          }
        }
      }
    }
    // In the order the rules were loaded, whichever way they were found.
    if (candidates.length > 1) candidates.sort(byNumber);
    const matches: SigmaMatch[] = [];
    candidates: for (const index of candidates) {
      const rule = this.rules[index]!;
      const checks = this.checks[index];
      if (checks)
        for (let c = 0; c < checks.length; c++) if (!this.present(checks[c]!, sequence, view)) continue candidates;
      if (!this.applies(rule, keys, channel)) continue;
      this.evaluations++;
      if (rule.matches(view)) matches.push({ rule: rule.info });
    }
    return matches;
  }
}
