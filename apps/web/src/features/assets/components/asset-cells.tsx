import type { AssetCriticality, AssetKind, IpHostSource } from '@vigil/contract';
import { assetCriticalityValues, assetKindValues, ipHostSourceValues } from '@vigil/contract/client';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { severityPill } from '../../triage';
import { assetTagColour } from '../lib/asset-values';

/** The names of the codes an asset carries (kind, criticality, IP source, source kind), read once per language. */
export function useAssetLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      kind: Object.fromEntries(assetKindValues.map((v) => [v, t(`assets.kind.${v}`)])) as Record<AssetKind, string>,
      criticality: Object.fromEntries(assetCriticalityValues.map((v) => [v, t(`assets.criticality.${v}`)])) as Record<
        AssetCriticality,
        string
      >,
      ipSource: Object.fromEntries(ipHostSourceValues.map((v) => [v, t(`assets.ipSource.${v}`)])) as Record<
        IpHostSource,
        string
      >,
      sourceKind: {
        endpoint: t('assets.sourceKind.endpoint'),
        eve: t('assets.sourceKind.eve'),
        manual: t('assets.sourceKind.manual'),
        import: t('assets.sourceKind.import'),
      } as Record<string, string>,
    }),
    [t],
  );
}
export type AssetLabels = ReturnType<typeof useAssetLabels>;

/** A source (`endpoint:<host>`, `eve:<sensor>`, `manual`, `import`) named by its kind; an unknown one as it came. */
export function sourceLabel(source: string, labels: AssetLabels): string {
  const kind = source.split(':', 1)[0] ?? source;
  return labels.sourceKind[kind] ?? source;
}

/** A source with what follows its kind: "Sensor · suricata-01". */
export function sourceText(source: string, labels: AssetLabels): string {
  const colon = source.indexOf(':');
  return colon < 0 ? sourceLabel(source, labels) : `${sourceLabel(source, labels)} · ${source.slice(colon + 1)}`;
}

/** A company's name by id, for people who see several companies; null for those who see one. */
export function companyNames(companies: readonly { id: number; name: string }[]): (id: number) => string | null {
  const names = new Map(companies.map((company) => [company.id, company.name]));
  return (id) => (companies.length > 1 ? (names.get(id) ?? `#${id}`) : null);
}

/** Criticality in the severity colours (low … critical). */
export function CriticalityPill({ value, label }: { value: AssetCriticality; label: string }) {
  return severityPill(value, label);
}

/** Tags in the four asset-tag colours, the first `max` shown and the rest counted. */
export function AssetTags({ tags, max = tags.length }: { tags: readonly string[]; max?: number }) {
  const shown = tags.slice(0, max);
  return (
    <span className="vigil-pills vigil-asset-tags" title={tags.join(', ')}>
      {shown.map((tag) => (
        <span key={tag} className="vigil-asset-tag" data-colour={assetTagColour(tag)}>
          {tag}
        </span>
      ))}
      {tags.length > shown.length && (
        <span className="vigil-cell-dim vigil-asset-tags__more">+{tags.length - shown.length}</span>
      )}
    </span>
  );
}
