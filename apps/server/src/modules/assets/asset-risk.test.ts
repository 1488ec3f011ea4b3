import { describe, expect, it } from 'vitest';
import { assetRisk } from './asset-risk';

describe('assetRisk', () => {
  it('weighs open alerts by severity and multiplies by the criticality factor', () => {
    const risk = assetRisk('high', { critical: 1, high: 2, medium: 3, low: 4, info: 5 });
    expect(risk.parts.map((p) => [p.severity, p.count, p.points])).toEqual([
      ['critical', 1, 40],
      ['high', 2, 40],
      ['medium', 3, 24],
      ['low', 4, 8],
      ['info', 5, 0],
    ]);
    expect(risk.alert_points).toBe(112);
    expect(risk.factor).toBe(1.5);
    expect(risk.score).toBe(168);
  });

  it('is zero without open alerts, whatever the criticality', () => {
    const risk = assetRisk('critical', {});
    expect(risk.score).toBe(0);
    expect(risk.parts.every((p) => p.count === 0 && p.points === 0)).toBe(true);
  });

  it('halves a low-criticality asset and rounds', () => {
    expect(assetRisk('low', { low: 1, medium: 0 }).score).toBe(1);
    expect(assetRisk('low', { critical: 1 }).score).toBe(20);
    expect(assetRisk('medium', { critical: 1 }).score).toBe(40);
    expect(assetRisk('critical', { critical: 1 }).score).toBe(80);
  });

  it('ignores severities it does not know', () => {
    expect(assetRisk('medium', { bogus: 9, high: 1 }).score).toBe(20);
  });
});
