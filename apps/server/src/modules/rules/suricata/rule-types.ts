import type { AddressExpr, PortExpr } from './addresses';

export const RULE_ACTIONS = [
  'alert',
  'pass',
  'drop',
  'reject',
  'rejectsrc',
  'rejectdst',
  'rejectboth',
  'config',
] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export type Direction = '->' | '<>' | '=>';

/** How a threshold or detection filter groups the matches it counts. */
export type Track = 'by_src' | 'by_dst' | 'by_rule' | 'by_both' | 'by_flow';

/** One option of a rule as written: `name` alone (`noalert;`) or `name:value;`, the value trimmed but not unquoted. */
export interface RuleOption {
  name: string;
  value: string | null;
}

/** The `threshold` keyword of a rule. `seconds` is null only for `backoff`, which counts with a `multiplier`. */
export interface ThresholdSpec {
  type: 'threshold' | 'limit' | 'both' | 'backoff';
  track: Track;
  count: number;
  seconds: number | null;
  multiplier: number | null;
}

/** The `detection_filter` keyword: alert on every match after `count` within `seconds`. */
export interface DetectionFilterSpec {
  track: Track;
  count: number;
  seconds: number;
  uniqueOn: 'src_port' | 'dst_port' | null;
}

export type FlowbitsCommand = 'set' | 'unset' | 'toggle' | 'isset' | 'isnotset' | 'noalert';

/** One `flowbits` keyword; `names` are joined by `operator` (`a|b`: any, `a&b`: all) when there are several. */
export interface FlowbitsOp {
  command: FlowbitsCommand;
  names: string[];
  operator: '|' | '&' | null;
}

/** One `content` keyword: its bytes with |hex| decoded, as hexadecimal, and whether it is negated. */
export interface ContentMatch {
  negated: boolean;
  hex: string;
  /** The pattern as written between the quotes. */
  text: string;
}

export interface Reference {
  type: string;
  value: string;
}

export interface SuricataRule {
  /** A rule commented out in its file (`# alert …`) is kept, disabled. */
  enabled: boolean;
  action: RuleAction;
  protocol: string;
  src: AddressExpr;
  srcPort: PortExpr;
  direction: Direction;
  dst: AddressExpr;
  dstPort: PortExpr;
  options: RuleOption[];
  msg: string | null;
  sid: number;
  rev: number | null;
  /** 1 unless the rule sets `gid`. */
  gid: number;
  classtype: string | null;
  priority: number | null;
  /** `metadata` entries, each key with its values in the order written. */
  metadata: Record<string, string[]>;
  mitreTechniqueIds: string[];
  mitreTacticIds: string[];
  references: Reference[];
  threshold: ThresholdSpec | null;
  detectionFilter: DetectionFilterSpec | null;
  flowbits: FlowbitsOp[];
  /** Whether the rule never alerts on its own (`noalert;` or `flowbits:noalert;`). */
  noalert: boolean;
  target: 'src_ip' | 'dest_ip' | null;
  contents: ContentMatch[];
  /** The rule as written (continuation lines joined, the comment mark of a disabled rule taken off). */
  text: string;
}
