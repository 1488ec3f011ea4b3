import { Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { GraphEdge, GraphNode } from '../api/graph';
import { KindIcon } from './kind-icon';

/** Rows drawn at once; a filter narrows a big graph down. */
const ROWS = 150;

export interface NodeListProps {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/**
 * The graph as a table: the canvas is a picture, so everything on it is also here for keyboards
 * and screen readers (and for finding one node among thousands).
 */
export function NodeList({ nodes, edges, selectedId, onSelect }: NodeListProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const degree = useMemo(() => {
    const counts = new Map<string, number>();
    for (const e of edges) {
      counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
      counts.set(e.target, (counts.get(e.target) ?? 0) + 1);
    }
    return counts;
  }, [edges]);
  const matching = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const list = needle
      ? nodes.filter(
          (n) =>
            n.label.toLowerCase().includes(needle) ||
            n.value.toLowerCase().includes(needle) ||
            t(`graph.kinds.${n.kind}`).toLowerCase().includes(needle),
        )
      : [...nodes];
    return list.sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || a.label.localeCompare(b.label));
  }, [nodes, filter, degree, t]);
  const shown = matching.slice(0, ROWS);
  return (
    <section className="vigil-graph__list" aria-labelledby="graph-list-title">
      <div className="vigil-graph__list-head">
        <Text id="graph-list-title" className="vigil-graph__section-title">
          {t('graph.list.title')} · {nodes.length}
        </Text>
        <TextInput
          size="xs"
          aria-label={t('graph.list.filter')}
          placeholder={t('graph.list.filter')}
          leftSection={<IconFilter size={14} />}
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          w={260}
        />
      </div>
      <Table striped={false} highlightOnHover verticalSpacing={4} fz="sm" data-testid="graph-node-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={160}>{t('graph.list.kind')}</Table.Th>
            <Table.Th>{t('graph.list.label')}</Table.Th>
            <Table.Th w={110} ta="end">
              {t('graph.list.relations')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((node) => (
            <Table.Tr
              key={node.id}
              data-node-id={node.id}
              data-kind={node.kind}
              aria-selected={node.id === selectedId}
              className={node.id === selectedId ? 'vigil-graph__row--selected' : undefined}
            >
              <Table.Td>
                <span className="vigil-graph__kind-cell">
                  <KindIcon kind={node.kind} size={14} />
                  {t(`graph.kinds.${node.kind}`)}
                </span>
              </Table.Td>
              <Table.Td>
                <UnstyledButton
                  className="vigil-graph__link-button"
                  onClick={() => onSelect(node.id)}
                  aria-label={t('graph.list.select', { label: node.label })}
                >
                  {node.label}
                </UnstyledButton>
              </Table.Td>
              <Table.Td ta="end">{degree.get(node.id) ?? 0}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {matching.length === 0 && (
        <Text size="sm" c="dimmed" p="sm">
          {t('graph.list.empty')}
        </Text>
      )}
      {matching.length > ROWS && (
        <Text size="xs" c="dimmed" p="sm">
          {t('graph.list.more', { count: matching.length - ROWS })}
        </Text>
      )}
    </section>
  );
}
