import type { AlertSeverity, AlertStatus, GraphNodeKind, IncidentStatus } from '@vigil/contract';
import { Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowsMaximize, IconChartDots3, IconEyeOff, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { CopyField } from '../../../components/ui/copy-field';
import { formatDate } from '../../../lib/dates';
import { AlertStatusBadge, IncidentStatusBadge, SeverityBadge } from '../../triage';
import { nodePivot, regraphUrl, type GraphEdge, type GraphNode } from '../api/graph';
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

/** The facts a node carries, as fields. */
function NodeFields({ node }: { node: GraphNode }) {
  const { t } = useTranslation();
  const d = node.data;
  const fields: ReactNode[] = [];
  const title = text(d.title);
  if (title)
    fields.push(
      <Field key="title" label={t('graph.panel.fields.title')}>
        {title}
      </Field>,
    );
  const severity = text(d.severity);
  if (severity && severities.has(severity))
    fields.push(
      <Field key="severity" label={t('graph.panel.fields.severity')}>
        <SeverityBadge severity={severity as AlertSeverity} />
      </Field>,
    );
  const status = text(d.status);
  if (status && node.kind === 'alert')
    fields.push(
      <Field key="status" label={t('graph.panel.fields.status')}>
        <AlertStatusBadge status={status as AlertStatus} />
      </Field>,
    );
  if (status && node.kind === 'incident')
    fields.push(
      <Field key="status" label={t('graph.panel.fields.status')}>
        <IncidentStatusBadge status={status as IncidentStatus} />
      </Field>,
    );
  if (typeof d.count === 'number')
    fields.push(
      <Field key="count" label={t('graph.panel.fields.count')}>
        {d.count}
      </Field>,
    );
  const firstSeen = text(d.firstSeen);
  if (firstSeen)
    fields.push(
      <Field key="first" label={t('graph.panel.fields.firstSeen')}>
        {formatDate(firstSeen)}
      </Field>,
    );
  const lastSeen = text(d.lastSeen);
  if (lastSeen)
    fields.push(
      <Field key="last" label={t('graph.panel.fields.lastSeen')}>
        {formatDate(lastSeen)}
      </Field>,
    );
  const subject = text(d.subject);
  if (subject)
    fields.push(
      <Field key="subject" label={t('graph.panel.fields.subject')}>
        {subject}
      </Field>,
    );
  const sender = text(d.sender);
  if (sender)
    fields.push(
      <Field key="sender" label={t('graph.panel.fields.sender')}>
        {sender}
      </Field>,
    );
  const received = text(d.ts);
  if (received)
    fields.push(
      <Field key="ts" label={t('graph.panel.fields.received')}>
        {formatDate(received)}
      </Field>,
    );
  const algorithm = text(d.algorithm);
  if (algorithm)
    fields.push(
      <Field key="alg" label={t('graph.panel.fields.algorithm')}>
        {algorithm.toUpperCase()}
      </Field>,
    );
  const filename = text(d.filename);
  if (filename)
    fields.push(
      <Field key="fn" label={t('graph.panel.fields.filename')}>
        {filename}
      </Field>,
    );
  return fields.length > 0 ? <div className="vigil-graph__fields">{fields}</div> : null;
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
        <Text size="sm" c="dimmed">
          {t('graph.panel.nothingSelected')}
        </Text>
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
