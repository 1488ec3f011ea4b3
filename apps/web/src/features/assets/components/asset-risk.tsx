import { HoverCard, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { severityCssColor, useTriageLabels } from '../../triage';
import type { AssetRisk } from '../api/assets';
import { riskColour, riskLevel } from '../lib/asset-values';
import { useAssetLabels } from './asset-cells';

/** The asset's risk figure; on hover, how it is made: each severity's open alerts × weight, the sum × criticality. */
export function RiskFigure({ risk }: { risk: AssetRisk }) {
  const { t } = useTranslation();
  const triage = useTriageLabels();
  const labels = useAssetLabels();
  const level = riskLevel(risk.score);
  const counted = risk.parts.filter((part) => part.count > 0);
  return (
    <HoverCard width={380} shadow="md" position="bottom-end" withArrow openDelay={100}>
      <HoverCard.Target>
        <span
          className="vigil-asset-risk"
          tabIndex={0}
          aria-label={`${t('assets.risk.label', { score: risk.score })} — ${t(`assets.risk.level.${level}`)}`}
          data-testid="asset-risk"
        >
          <Text size="sm" c="dimmed">
            {t('assets.risk.title')}
          </Text>
          <span
            className="vigil-asset-risk__score"
            style={{ color: severityCssColor(riskColour[level]) }}
            data-testid="asset-risk-score"
          >
            {risk.score}
          </span>
          <Text size="sm" fw={600} style={{ color: severityCssColor(riskColour[level]) }}>
            {t(`assets.risk.level.${level}`)}
          </Text>
        </span>
      </HoverCard.Target>
      <HoverCard.Dropdown data-testid="asset-risk-explained">
        <Stack gap={6}>
          <Text size="sm" fw={700}>
            {t('assets.risk.explain')}
          </Text>
          {counted.length === 0 ? (
            <Text size="sm">{t('assets.risk.none')}</Text>
          ) : (
            <>
              <Text size="xs" c="dimmed">
                {t('assets.risk.severity')}
              </Text>
              <table className="vigil-asset-risk__table">
                <tbody>
                  {counted.map((part) => (
                    <tr key={part.severity}>
                      <td>{triage.severity[part.severity as keyof typeof triage.severity] ?? part.severity}</td>
                      <td className="vigil-cell-mono">
                        {t('assets.risk.part', { count: part.count, weight: part.weight, points: part.points })}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <Text size="sm" className="vigil-cell-mono">
            {t('assets.risk.formula', {
              points: risk.alertPoints,
              factor: risk.factor,
              criticality: labels.criticality[risk.criticality].toLowerCase(),
              score: risk.score,
            })}
          </Text>
        </Stack>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
