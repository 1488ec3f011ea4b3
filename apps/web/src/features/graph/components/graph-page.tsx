import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconChartDots3,
  IconEye,
  IconFocusCentered,
  IconLayoutGrid,
  IconZoomIn,
  IconZoomOut,
  type Icon,
} from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSearchParams } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { IconButton } from '../../../components/ui/icon-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Surface } from '../../../components/ui/surface';
import { formatDate } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { usePermission } from '../../../lib/permissions';
import { useVigilTheme } from '../../../lib/theme';
import { expandGraphNode, fetchGraph, graphKeys, type GraphEdge, type RootRef } from '../api/graph';
import { countByKind, emptyModel, graphReducer, relationsOf, visibleElements } from '../lib/graph-model';
import { GraphCanvas, type GraphCanvasControls } from './graph-canvas';
import { GraphLegend } from './graph-legend';
import { NodeList } from './node-list';
import { NodePanel } from './node-panel';
import { RootPicker } from './root-picker';
import './graph.css';

/** The view controls of the graph's toolbar, in order; each is named by `graph.toolbar.<key>`. */
const viewTools: readonly {
  key: 'fit' | 'zoomIn' | 'zoomOut' | 'relayout';
  Icon: Icon;
  run: (controls: GraphCanvasControls) => void;
}[] = [
  { key: 'fit', Icon: IconFocusCentered, run: (controls) => controls.fit() },
  { key: 'zoomIn', Icon: IconZoomIn, run: (controls) => controls.zoomBy(1.25) },
  { key: 'zoomOut', Icon: IconZoomOut, run: (controls) => controls.zoomBy(0.8) },
  { key: 'relayout', Icon: IconLayoutGrid, run: (controls) => controls.relayout() },
];

/** `?alert=ID` or `?incident=ID` → what the graph is about. */
function rootFromParams(params: URLSearchParams): RootRef | null {
  for (const kind of ['alert', 'incident'] as const) {
    const raw = params.get(kind);
    if (raw && /^\d{1,15}$/.test(raw) && Number(raw) > 0) return { kind, id: Number(raw) };
  }
  return null;
}

/** Graph: the investigation graph of an alert or incident, expandable node by node. */
export default function GraphPage() {
  const { t } = useTranslation();
  const { palette } = useVigilTheme();
  const [params, setParams] = useSearchParams();
  const root = useMemo(() => rootFromParams(params), [params]);
  const mayViewIncidents = usePermission({ action: 'view', subject: 'incidents' });
  const [model, dispatch] = useReducer(graphReducer, emptyModel);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [anchorId, setAnchorId] = useState<string | null>(null);
  const controls = useRef<GraphCanvasControls>(null);

  const graph = useQuery({
    queryKey: root ? graphKeys.root(root) : ['graph', 'none'],
    queryFn: ({ signal }) => fetchGraph(root as RootRef, signal),
    enabled: root !== null,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    // A graph is a working surface: refetching in the background would throw the analyst's expansions away.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  useEffect(() => {
    if (!graph.data) return;
    dispatch({ type: 'load', graph: graph.data });
    setSelectedId(graph.data.root);
    setAnchorId(null);
  }, [graph.data]);

  const expand = useMutation({
    mutationFn: (id: string) => {
      const node = model.nodes.get(id);
      if (!node) throw new Error(`No node ${id}`);
      return expandGraphNode({
        node: { kind: node.kind, value: node.value },
        ...(model.around ? { around: model.around } : {}),
        ...(model.companyId !== null ? { companyId: model.companyId } : {}),
      });
    },
    onSuccess: (answer, id) => {
      dispatch({ type: 'expand', answer });
      setAnchorId(id);
    },
  });

  const { nodes, edges } = useMemo(() => visibleElements(model), [model]);
  const selected = selectedId && !model.hidden.has(selectedId) ? (model.nodes.get(selectedId) ?? null) : null;
  const relations = useMemo(() => (selected ? relationsOf(edges, selected.id) : []), [edges, selected]);
  const expandedIds = useMemo(() => new Set(model.expansions.keys()), [model.expansions]);
  const counts = useMemo(() => countByKind(nodes), [nodes]);

  const edgeLabel = useCallback(
    (edge: GraphEdge) => t('graph.edgeLabel', { kind: t(`graph.edgeKinds.${edge.kind}`), count: edge.count }),
    [t],
  );
  const nodeLabel = useCallback((id: string) => model.nodes.get(id)?.label ?? id, [model.nodes]);
  const onExpand = useCallback(
    (id: string) => {
      setSelectedId(id);
      if (!expand.isPending) expand.mutate(id);
    },
    [expand],
  );
  const select = useCallback((id: string | null) => {
    setSelectedId(id);
    if (id) controls.current?.focus(id);
  }, []);

  const choose = (next: RootRef) => {
    setParams(new URLSearchParams({ [next.kind]: String(next.id) }));
  };

  const notFound = graph.error instanceof ApiError && (graph.error.status === 404 || graph.error.status === 400);
  const showGraph = root !== null && graph.data !== undefined && model.rootId === graph.data.root;

  return (
    <div className="vigil-page vigil-graph-page">
      <PageHeader
        title={t('graph.title')}
        subtitle={t('graph.subtitle')}
        actions={
          <RootPicker
            root={root}
            onChoose={choose}
            incidents={mayViewIncidents}
            rootLabel={graph.data?.nodes.find((n) => n.id === graph.data?.root)?.label}
          />
        }
      />
      {root === null && (
        <Surface className="vigil-graph__empty">
          <IconChartDots3 size={40} stroke={1.4} aria-hidden="true" />
          <Text fw={600}>{t('graph.empty.title')}</Text>
          <Text size="sm" c="dimmed" maw={520} ta="center">
            {t('graph.empty.text')}
          </Text>
        </Surface>
      )}
      {root !== null && notFound && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {t('graph.notFound')}
        </Alert>
      )}
      {root !== null && graph.error && !notFound && (
        <LoadError message={t('graph.loadFailed')} onRetry={() => void graph.refetch()} />
      )}
      {root !== null && graph.isLoading && (
        <Group justify="center" p="xl">
          <Loader size="sm" />
        </Group>
      )}
      {showGraph && (
        <>
          {model.truncated && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
              {t('graph.rootTruncated')}
            </Alert>
          )}
          <div className="vigil-graph">
            <Surface className="vigil-graph__stage" level={0}>
              <div className="vigil-graph__toolbar" role="toolbar" aria-label={t('graph.title')}>
                {viewTools.map(({ key, Icon, run }) => (
                  <IconButton
                    key={key}
                    arrow
                    label={t(`graph.toolbar.${key}`)}
                    icon={<Icon size={16} />}
                    onClick={() => controls.current && run(controls.current)}
                  />
                ))}
                {model.hidden.size > 0 && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    leftSection={<IconEye size={14} />}
                    onClick={() => dispatch({ type: 'showAll' })}
                  >
                    {t('graph.toolbar.showHidden', { count: model.hidden.size })}
                  </Button>
                )}
              </div>
              <div className="vigil-graph__stats" data-testid="graph-stats">
                {expand.isPending && <Loader size={12} />}
                <span>{t('graph.stats', { nodes: nodes.length, edges: edges.length })}</span>
              </div>
              <GraphCanvas
                nodes={nodes}
                edges={edges}
                rootId={model.rootId}
                selectedId={selected?.id ?? null}
                expandedIds={expandedIds}
                anchorId={anchorId}
                palette={palette}
                edgeLabel={edgeLabel}
                onSelect={setSelectedId}
                onExpand={onExpand}
                label={t('graph.canvasLabel', { nodes: nodes.length, edges: edges.length })}
                controlsRef={controls}
              />
              <div className="vigil-graph__footnote">
                <span>{t('graph.hint')}</span>
                {model.around && (
                  <span>
                    {t('graph.window', {
                      from: formatDate(model.around.from),
                      to: formatDate(model.around.to),
                    })}
                  </span>
                )}
              </div>
            </Surface>
            <aside className="vigil-graph__side">
              <Surface level={1}>
                <NodePanel
                  node={selected}
                  isRoot={selected?.id === model.rootId}
                  relations={relations}
                  nodeLabel={nodeLabel}
                  expansion={selected ? model.expansions.get(selected.id) : undefined}
                  expanding={expand.isPending && expand.variables === selected?.id}
                  onExpand={() => selected && onExpand(selected.id)}
                  onHide={() => {
                    if (!selected) return;
                    dispatch({ type: 'hide', id: selected.id });
                    setSelectedId(null);
                  }}
                  onSelect={select}
                />
                {expand.isError && (
                  <Text size="xs" c="red" mt="xs" role="alert">
                    {t('graph.panel.expandFailed')}
                  </Text>
                )}
              </Surface>
              <Surface level={1}>
                <GraphLegend counts={counts} />
              </Surface>
            </aside>
          </div>
          <Surface level={1}>
            <NodeList nodes={nodes} edges={edges} selectedId={selected?.id ?? null} onSelect={select} />
          </Surface>
        </>
      )}
    </div>
  );
}
