import { formatAddress, formatPort } from './addresses';
import type { SuricataRule } from './rule-types';
import type { ThresholdConfigEntry } from './threshold-config';

/**
 * One rule on one line: its header from the parsed parts and its options as they were written,
 * in their order, so a sensor gets exactly the keywords the rule came with.
 */
export function formatRule(rule: SuricataRule): string {
  const header = [
    rule.action,
    rule.protocol,
    formatAddress(rule.src),
    formatPort(rule.srcPort),
    rule.direction,
    formatAddress(rule.dst),
    formatPort(rule.dstPort),
  ].join(' ');
  const options = rule.options.map((o) => (o.value === null ? `${o.name};` : `${o.name}:${o.value};`)).join(' ');
  return `${header} (${options})`;
}

/** A rules file: one rule a line, a disabled rule written commented out, an optional heading comment. */
export function formatRulesFile(rules: readonly SuricataRule[], heading?: string): string {
  const lines = heading ? heading.split('\n').map((l) => `# ${l}`.trimEnd()) : [];
  for (const rule of rules) lines.push(rule.enabled ? formatRule(rule) : `# ${formatRule(rule)}`);
  return `${lines.join('\n')}\n`;
}

export function formatThresholdEntry(entry: ThresholdConfigEntry): string {
  const ids = `gen_id ${entry.gid}, sig_id ${entry.sid}`;
  switch (entry.kind) {
    case 'suppress':
      return entry.track === null || entry.ipText === null
        ? `suppress ${ids}`
        : `suppress ${ids}, track ${entry.track}, ip ${entry.ipText}`;
    case 'threshold':
      return `${entry.keyword} ${ids}, type ${entry.type}, track ${entry.track}, count ${entry.count}, seconds ${entry.seconds}`;
    case 'rate_filter':
      return `rate_filter ${ids}, track ${entry.track}, count ${entry.count}, seconds ${entry.seconds}, new_action ${entry.newAction}, timeout ${entry.timeout}`;
  }
}

export function formatThresholdConfig(entries: readonly ThresholdConfigEntry[], heading?: string): string {
  const lines = heading ? heading.split('\n').map((l) => `# ${l}`.trimEnd()) : [];
  for (const entry of entries) lines.push(formatThresholdEntry(entry));
  return `${lines.join('\n')}\n`;
}
