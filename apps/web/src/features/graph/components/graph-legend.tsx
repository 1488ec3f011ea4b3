import type { GraphNodeKind } from '@vigil/contract';
import { graphNodeKinds } from '@vigil/contract/client';
import { Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { KindIcon } from './kind-icon';

/** Every kind of node with its shape and colour, and how many of each are drawn. */
export function GraphLegend({ counts }: { counts: Partial<Record<GraphNodeKind, number>> }) {
  const { t } = useTranslation();
  return (
    <section className="vigil-graph__legend" aria-labelledby="graph-legend-title">
      <Text id="graph-legend-title" className="vigil-graph__section-title">
        {t('graph.legend.title')}
      </Text>
      <ul className="vigil-graph__legend-list">
        {graphNodeKinds.map((kind) => (
          <li key={kind} data-present={(counts[kind] ?? 0) > 0}>
            <KindIcon kind={kind} />
            <span className="vigil-graph__legend-name">{t(`graph.kinds.${kind}`)}</span>
            <span className="vigil-graph__legend-count">{counts[kind] ?? 0}</span>
          </li>
        ))}
      </ul>
      <Text size="xs" c="dimmed" mt={6}>
        {t('graph.legend.shapes')}
      </Text>
    </section>
  );
}
