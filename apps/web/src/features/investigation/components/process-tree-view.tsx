import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconPoint } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { formatDate } from '../../../lib/dates';
import { alertUrl } from '../../triage';
import { useProcessTree, type ProcessNode } from '../api/investigation';
import { ancestorsOf, indexProcesses, parentKeys, visibleProcesses } from '../lib/process-tree';
import { HashValue, KeyValues, Section } from './shared';

const INDENT = 20;

/**
 * The processes of a host in a time window as an indented tree (parent → children): collapsible, navigable
 * with the keyboard (↑/↓, ← collapses or goes to the parent, → expands or goes to the first child, Home/End),
 * processes linked to alerts marked; the selected process's details below.
 */
export function ProcessTreeView({
  hostName,
  from,
  to,
  companyId,
  focusPid,
}: {
  hostName: string;
  from: string;
  to: string;
  companyId?: number;
  /** Select the latest process with this pid once loaded. */
  focusPid?: number | null;
}) {
  const { t } = useTranslation();
  const request = useMemo(
    () => ({ host_name: hostName, from, to, ...(companyId === undefined ? {} : { company_id: companyId }) }),
    [hostName, from, to, companyId],
  );
  const tree = useProcessTree(request);
  const processes = useMemo(() => tree.data?.processes ?? [], [tree.data]);
  const index = useMemo(() => indexProcesses(processes), [processes]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const rows = useMemo(() => visibleProcesses(index, collapsed), [index, collapsed]);
  const treeRef = useRef<HTMLDivElement>(null);

  // Once loaded: select the process asked for (its ancestors expanded), or the first one.
  useEffect(() => {
    if (processes.length === 0) return;
    const focus =
      focusPid === undefined || focusPid === null
        ? undefined
        : [...processes].reverse().find((process) => process.pid === focusPid);
    const key = focus?.key ?? processes[0]!.key;
    setSelected(key);
    if (focus) setCollapsed((current) => new Set([...current].filter((k) => !ancestorsOf(index, key).includes(k))));
  }, [processes, focusPid, index]);

  useEffect(() => {
    if (!selected) return;
    treeRef.current?.querySelector(`[data-key="${CSS.escape(selected)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const toggle = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const at = Math.max(
      0,
      rows.findIndex((row) => row.process.key === selected),
    );
    const row = rows[at]!;
    const go = (i: number) => setSelected(rows[Math.min(rows.length - 1, Math.max(0, i))]!.process.key);
    switch (event.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !row.expanded) toggle(row.process.key);
        else if (row.expanded) go(at + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) toggle(row.process.key);
        else if (row.parentKey) setSelected(row.parentKey);
        break;
      case 'Enter':
      case ' ':
        if (row.hasChildren) toggle(row.process.key);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  if (tree.isLoading) {
    return (
      <Group justify="center" p="xl">
        <Loader size="sm" />
      </Group>
    );
  }
  if (tree.error) return <LoadError message={t('investigation.tree.loadFailed')} onRetry={() => void tree.refetch()} />;

  const current = selected ? index.byKey.get(selected) : undefined;
  const alerted = processes.filter((process) => process.alertIds.length > 0).length;

  return (
    <Stack gap="sm" data-testid="process-tree">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          {t('investigation.tree.summary', {
            count: processes.length,
            from: formatDate(from),
            to: formatDate(to),
          })}
          {alerted > 0 && ` · ${t('investigation.tree.alerted', { count: alerted })}`}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={() => setCollapsed(new Set())}>
            {t('investigation.tree.expandAll')}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setCollapsed(parentKeys(index))}>
            {t('investigation.tree.collapseAll')}
          </Button>
        </Group>
      </Group>
      {tree.data?.truncated && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />}>
          {t('investigation.tree.truncated')}
        </Alert>
      )}
      {processes.length === 0 ? (
        <Text c="dimmed" size="sm" p="md" ta="center">
          {t('investigation.tree.empty')}
        </Text>
      ) : (
        <div
          ref={treeRef}
          className="vigil-ptree"
          role="tree"
          aria-label={t('investigation.tree.title', { host: hostName })}
          aria-activedescendant={selected ? `ptree-${selected}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
          style={{ maxHeight: '52vh' }}
        >
          {rows.map((row) => {
            const process = row.process;
            const isSelected = process.key === selected;
            return (
              <div
                key={process.key}
                id={`ptree-${process.key}`}
                data-key={process.key}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-posinset={row.position}
                aria-setsize={row.siblings}
                aria-expanded={row.hasChildren ? row.expanded : undefined}
                aria-selected={isSelected}
                data-active={isSelected}
                data-alerted={process.alertIds.length > 0}
                className="vigil-ptree__row"
                onClick={() => {
                  setSelected(process.key);
                  treeRef.current?.focus();
                }}
                data-testid="process-node"
                data-name={process.name ?? ''}
                data-depth={row.depth}
              >
                <div className="vigil-ptree__main">
                  {Array.from({ length: row.depth }, (_, level) => (
                    <span key={level} className="vigil-ptree__guide" style={{ width: INDENT }} aria-hidden="true" />
                  ))}
                  <span
                    className="vigil-ptree__toggle"
                    onClick={(event) => {
                      event.stopPropagation();
                      if (row.hasChildren) toggle(process.key);
                    }}
                    aria-hidden="true"
                  >
                    {row.hasChildren ? (
                      row.expanded ? (
                        <IconChevronDown size={16} />
                      ) : (
                        <IconChevronRight size={16} />
                      )
                    ) : (
                      <IconPoint size={12} />
                    )}
                  </span>
                  <span className="vigil-ptree__text">
                    <span>
                      <span className="vigil-ptree__name">{process.name ?? t('investigation.tree.unnamed')}</span>
                      <span className="vigil-inv-dim vigil-inv-mono">
                        {' '}
                        {process.pid !== null && `PID ${process.pid}`}
                        {process.user && ` · ${process.user}`}
                      </span>
                      {process.alertIds.length > 0 && (
                        <span className="vigil-pill vigil-pill--red" style={{ marginLeft: 8 }}>
                          {t('investigation.tree.alertBadge', { count: process.alertIds.length })}
                        </span>
                      )}
                    </span>
                    {process.commandLine && (
                      <span className="vigil-ptree__cmd" title={process.commandLine}>
                        {process.commandLine}
                      </span>
                    )}
                  </span>
                </div>
                <span className="vigil-ptree__time">
                  {formatDate(process.start, 'isoDateTimeSeconds')}
                  {!process.startSeen && (
                    <Text component="span" size="xs" c="dimmed" display="block">
                      {t('investigation.tree.firstSeen')}
                    </Text>
                  )}
                </span>
              </div>
            );
          })}
        </div>
      )}
      {current && (
        <ProcessDetails process={current} parent={current.parentKey ? index.byKey.get(current.parentKey) : undefined} />
      )}
    </Stack>
  );
}

function ProcessDetails({ process, parent }: { process: ProcessNode; parent: ProcessNode | undefined }) {
  const { t } = useTranslation();
  return (
    <Section title={t('investigation.tree.details')} testId="process-details">
      <KeyValues
        items={[
          [t('investigation.endpoint.process'), process.name],
          ['PID', process.pid === null ? null : String(process.pid)],
          [
            t('investigation.endpoint.executable'),
            process.executable ? <span className="vigil-inv-mono">{process.executable}</span> : null,
          ],
          [
            t('investigation.endpoint.commandLine'),
            process.commandLine ? <span className="vigil-inv-mono">{process.commandLine}</span> : null,
          ],
          [t('investigation.endpoint.user'), process.user],
          [t('investigation.tree.started'), formatDate(process.start, 'isoDateTimeSeconds')],
          [
            t('investigation.endpoint.parent'),
            parent
              ? `${parent.name ?? '—'} (PID ${parent.pid ?? '—'})`
              : process.parentName || process.parentPid !== null
                ? `${process.parentName ?? '—'} (PID ${process.parentPid ?? '—'})`
                : null,
          ],
          [
            t('investigation.endpoint.entityId'),
            process.entityId ? <span className="vigil-inv-mono">{process.entityId}</span> : null,
          ],
          ['SHA-256', process.hashes.sha256 ? <HashValue value={process.hashes.sha256} /> : null],
          ['SHA-1', process.hashes.sha1 ? <HashValue value={process.hashes.sha1} link={false} /> : null],
          ['MD5', process.hashes.md5 ? <HashValue value={process.hashes.md5} link={false} /> : null],
          [t('investigation.tree.events'), String(process.eventCount)],
          [
            t('investigation.tree.alerts'),
            process.alertIds.length > 0 ? (
              <Group gap="xs">
                {process.alertIds.map((id) => (
                  <Anchor key={id} component={Link} to={alertUrl(id)} size="sm">
                    #{id}
                  </Anchor>
                ))}
              </Group>
            ) : null,
          ],
        ]}
      />
    </Section>
  );
}
