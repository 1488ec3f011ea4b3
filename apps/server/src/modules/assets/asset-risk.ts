import type { AssetCriticality, AssetRisk } from '@vigil/contract';

/**
 * Points of one open alert by its severity. A critical alert outweighs several high ones, and a pile
 * of informational alerts never makes an asset risky on its own.
 */
export const RISK_SEVERITY_WEIGHTS: Readonly<Record<string, number>> = {
  critical: 40,
  high: 20,
  medium: 8,
  low: 2,
  info: 0,
};

/** How much the company's dependence on the asset multiplies its alerts' points. */
export const RISK_CRITICALITY_FACTORS: Readonly<Record<AssetCriticality, number>> = {
  low: 0.5,
  medium: 1,
  high: 1.5,
  critical: 2,
};

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];

/**
 * The risk figure of an asset: each severity's open alerts times its weight, summed, times the
 * criticality's factor, rounded. Every severity is a part, in order from critical down, even at zero.
 */
export function assetRisk(
  criticality: AssetCriticality,
  openAlertsBySeverity: Readonly<Record<string, number>>,
): AssetRisk {
  const parts = SEVERITY_ORDER.map((severity) => {
    const count = openAlertsBySeverity[severity] ?? 0;
    const weight = RISK_SEVERITY_WEIGHTS[severity] ?? 0;
    return { severity, count, weight, points: count * weight };
  });
  const alertPoints = parts.reduce((sum, part) => sum + part.points, 0);
  const factor = RISK_CRITICALITY_FACTORS[criticality];
  return { score: Math.round(alertPoints * factor), criticality, factor, alert_points: alertPoints, parts };
}
