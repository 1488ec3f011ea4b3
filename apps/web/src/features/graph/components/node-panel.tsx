import type { AlertSeverity, AlertStatus, GraphNodeKind, IncidentStatus } from '@vigil/contract';
import { Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowsMaximize, IconChartDots3, IconEyeOff, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { CopyField } from '../../../components/ui/copy-field';
import { Note } from '../../../components/ui/note';
import { formatDate } from '../../../lib/dates';
import { AlertStatusBadge, IncidentStatusBadge, SeverityBadge } from '../../triage';
import { nodePivot, regraphUrl, type GraphEdge, type GraphNode } from '../api/graph';
import type { en } from '../../../lib/i18n/locales/en';
import type { ExpansionNote } from '../lib/graph-model';
import { KindIcon } from './kind-icon';

const severities = new Set(['info', 'low', 'medium', 'high', 'critical']);
const RELATIONS_SHOWN = 12;

export interface NodePanelProps {
  node: GraphNode | null;
  isRoot: boolean;
  relations: readonly GraphEdge[];
  nodeLabel: (id: string) => string;
  expansion: ExpansionNote | undefined;
  expanding: boolean;
  onExpand: () => void;
  onHide: () => void;
  onSelect: (id: string) => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="vigil-graph__field">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

const date = (value: unknown): string | null => {
  const when = text(value);
  return when && formatDate(when);
};

const statusBadge = ({ kind, data }: GraphNode): ReactNode => {
  const status = text(data.status);
  if (status && kind === 'alert') return <AlertStatusBadge status={status as AlertStatus} />;
  if (status && kind === 'incident') return <IncidentStatusBadge status={status as IncidentStatus} />;
  return null;
};

/** The facts a node may carry, in the order shown: each named by `graph.panel.fields.<label>`, absent when null. */
const nodeFacts: readonly {
  label: keyof (typeof en)['graph']['panel']['fields'];
  show: (node: GraphNode) => ReactNode;
}[] = [
  { label: 'title', show: ({ data }) => text(data.title) },
  {
    label: 'severity',
    show: ({ data }) => {
      const severity = text(data.severity);
      return severity && severities.has(severity) ? <SeverityBadge severity={severity as AlertSeverity} /> : null;
    },
  },
  { label: 'status', show: statusBadge },
  { label: 'count', show: ({ data }) => (typeof data.count === 'number' ? data.count : null) },
  { label: 'firstSeen', show: ({ data }) => date(data.firstSeen) },
  { label: 'lastSeen', show: ({ data }) => date(data.lastSeen) },
  { label: 'subject', show: ({ data }) => text(data.subject) },
  { label: 'sender', show: ({ data }) => text(data.sender) },
  { label: 'received', show: ({ data }) => date(data.ts) },
  { label: 'algorithm', show: ({ data }) => text(data.algorithm)?.toUpperCase() ?? null },
  { label: 'filename', show: ({ data }) => text(data.filename) },
];

/** The facts a node carries, as fields. */
function NodeFields({ node }: { node: GraphNode }) {
  const { t } = useTranslation();
  const fields = nodeFacts.flatMap(({ label, show }) => {
    const value = show(node);
    return value === null ? [] : [{ label, value }];
  });
  return fields.length > 0 ? (
    <div className="vigil-graph__fields">
      {fields.map(({ label, value }) => (
        <Field key={label} label={t(`graph.panel.fields.${label}`)}>
          {value}
        </Field>
      ))}
    </div>
  ) : null;
}

/** The selected node: what it is, what it touches, and what can be done with it. */
export function NodePanel(props: NodePanelProps) {
  const { t } = useTranslation();
  const { node, expansion } = props;
  if (!node) {
    return (
      <section className="vigil-graph__panel" aria-labelledby="graph-panel-title">
        <Text id="graph-panel-title" className="vigil-graph__section-title">
          {t('graph.panel.title')}
        </Text>
        <Note>{t('graph.panel.nothingSelected')}</Note>
      </section>
    );
  }
  const pivot = nodePivot(node.kind, node.value);
  const regraph = props.isRoot ? null : regraphUrl(node.kind, node.value);
  const shownRelations = props.relations.slice(0, RELATIONS_SHOWN);
  return (
    <section className="vigil-graph__panel" aria-labelledby="graph-panel-title" data-testid="graph-node-panel">
      <Text id="graph-panel-title" className="vigil-graph__section-title">
        {t('graph.panel.title')}
      </Text>
      <Stack gap="sm">
        <Group gap={8} wrap="nowrap" align="flex-start">
          <KindIcon kind={node.kind} size={20} />
          <div className="vigil-graph__panel-heading">
            <Text size="xs" c="dimmed">
              {t(`graph.kinds.${node.kind}`)}
            </Text>
            <Text fw={600} className="vigil-graph__panel-label">
              {node.label}
            </Text>
          </div>
        </Group>
        {!(['alert', 'incident', 'mail'] as GraphNodeKind[]).includes(node.kind) && (
          <CopyField label={t('graph.panel.value')} value={node.value} />
        )}
        <NodeFields node={node} />
        <Group gap="xs">
          <Tooltip label={t('graph.panel.expandHint')} withArrow>
            <Button
              size="xs"
              leftSection={<IconArrowsMaximize size={14} />}
              onClick={props.onExpand}
              loading={props.expanding}
            >
              {t('graph.panel.expand')}
            </Button>
          </Tooltip>
          {!props.isRoot && (
            <Button size="xs" variant="default" leftSection={<IconEyeOff size={14} />} onClick={props.onHide}>
              {t('graph.panel.hide')}
            </Button>
          )}
        </Group>
        {expansion && (
          <Text size="xs" c={expansion.truncated ? 'orange' : 'dimmed'} data-testid="graph-expansion-note">
            {expansion.total === 0
              ? t('graph.panel.noNeighbours')
              : t('graph.panel.expanded', { shown: expansion.shown, total: expansion.total })}
            {expansion.truncated && <> {t('graph.panel.truncated')}</>}
          </Text>
        )}
        <Stack gap={4}>
          {pivot && (
            <Anchor component={Link} to={pivot} size="sm" className="vigil-graph__pivot">
              <IconExternalLink size={14} />
              {t(`graph.panel.pivots.${node.kind}`)}
            </Anchor>
          )}
          {regraph && (
            <Anchor component={Link} to={regraph} size="sm" className="vigil-graph__pivot">
              <IconChartDots3 size={14} />
              {t('graph.panel.openGraph')}
            </Anchor>
          )}
        </Stack>
        {props.relations.length > 0 && (
          <div>
            <Text size="xs" c="dimmed" mb={4}>
              {t('graph.panel.relations', { count: props.relations.length })}
            </Text>
            <ul className="vigil-graph__relations">
              {shownRelations.map((edge) => {
                const other = edge.source === node.id ? edge.target : edge.source;
                const outgoing = edge.source === node.id;
                return (
                  <li key={edge.id}>
                    <span className="vigil-graph__relation-kind">
                      {outgoing ? '→' : '←'} {t(`graph.edgeKinds.${edge.kind}`)}
                    </span>
                    <button type="button" className="vigil-graph__link-button" onClick={() => props.onSelect(other)}>
                      {props.nodeLabel(other)}
                    </button>
                    <span className="vigil-graph__relation-count">×{edge.count}</span>
                  </li>
                );
              })}
            </ul>
            {props.relations.length > RELATIONS_SHOWN && (
              <Text size="xs" c="dimmed">
                {t('graph.panel.moreRelations', { count: props.relations.length - RELATIONS_SHOWN })}
              </Text>
            )}
          </div>
        )}
      </Stack>
    </section>
  );
}
