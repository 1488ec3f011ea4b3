/**
 * The spec's four asset-tag colours (`--vigil-asset-tag-1` … `-4`, both themes): a tag always gets the
 * same one, chosen from its text (case aside), so "pci" is the same colour on every page.
 */
export function assetTagColour(tag: string): number {
  let hash = 0;
  for (const char of tag.trim().toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return (hash % 4) + 1;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+(:(\d{1,3}\.){3}\d{1,3})?$/i;

/** Whether a text is an IPv4 or IPv6 address/prefix the server will take (its own check decides at last). */
export function isCidr(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  if (address === undefined || prefix === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  if (IPV4.test(address)) return bits <= 32;
  return address.includes(':') && IPV6.test(address) && (address.match(/::/g) ?? []).length <= 1 && bits <= 128;
}

/** The networks typed one a line: blank lines and repeats dropped, the lines that are no network named. */
export function readCidrLines(text: string): { cidrs: string[]; bad: { line: number; text: string }[] } {
  const cidrs: string[] = [];
  const bad: { line: number; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    if (!isCidr(line)) bad.push({ line: index + 1, text: line });
    else if (!cidrs.includes(line)) cidrs.push(line);
  });
  return { cidrs, bad };
}

/** A list typed in a text field, split at commas, semicolons, spaces and line ends. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export type RiskLevel = 'none' | 'low' | 'elevated' | 'high' | 'severe';

/**
 * A risk figure in words (docs/decisions.md, "Risk figure"): one high alert on an ordinary machine (20)
 * is elevated, one critical (40) high, one critical on a critical server (80) or more severe.
 */
export function riskLevel(score: number): RiskLevel {
  if (score <= 0) return 'none';
  if (score < 20) return 'low';
  if (score < 40) return 'elevated';
  if (score < 80) return 'high';
  return 'severe';
}

/** The severity colour a risk level is shown in. */
export const riskColour: Record<RiskLevel, 'info' | 'low' | 'medium' | 'high' | 'critical'> = {
  none: 'info',
  low: 'low',
  elevated: 'medium',
  high: 'high',
  severe: 'critical',
};
