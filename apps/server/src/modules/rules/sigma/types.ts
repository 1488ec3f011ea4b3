import { printable } from '../../../safe-text';

/**
 * A rule the engine cannot run, with the reason in a detection engineer's words. The reason
 * quotes the rule's own text (field names, values, patterns), so it is made printable.
 */
export class SigmaRefusal extends Error {
  constructor(reason: string) {
    super(printable(reason, 1000));
    this.name = 'SigmaRefusal';
  }
}

/** Where a rule's events come from, as its `logsource` says. */
export interface SigmaLogsource {
  readonly product: string | null;
  readonly category: string | null;
  readonly service: string | null;
}

/** What a rule says about itself: shown with every alert it raises. */
export interface SigmaRuleInfo {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly status: string | null;
  /** informational, low, medium, high or critical. */
  readonly level: string | null;
  readonly tags: readonly string[];
  /** ATT&CK technique ids from the tags, upper case: `attack.t1003.001` → `T1003.001`. */
  readonly techniques: readonly string[];
  /** ATT&CK tactic names from the tags: `attack.credential-access` → `credential-access`. */
  readonly tactics: readonly string[];
  readonly author: string | null;
  readonly references: readonly string[];
  /** The licence the rule is released under: its own `license`, else the one its source gives. */
  readonly license: string | null;
  readonly logsource: SigmaLogsource;
  readonly falsepositives: readonly string[];
}

/** A value of an event field as the resolver gives it; a list field gives several. */
export type FieldValue = string | number | boolean | null;

/** An event as the compiled rules read it. */
export interface EventView {
  /** The field's values, or undefined when the event does not have the field. */
  get(field: string): readonly FieldValue[] | undefined;
  /**
   * The field's values that are not null, as text (numbers and flags written out), in lower case
   * unless `cased`; undefined when the event does not have the field.
   */
  strings(field: string, cased: boolean): readonly string[] | undefined;
  /** Every text any field of the event gives (keyword searches, the prefilter), in lower case unless `cased`. */
  texts(cased: boolean): readonly string[];
}
