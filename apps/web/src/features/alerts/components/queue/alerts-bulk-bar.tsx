import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown, IconShieldPlus, IconTag, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../../lib/i18n';
import { SelectionBar } from '../../../../components/list/selection-bar';
import type { AlertQueue } from './use-alert-queue';
import type { Target, TriageActions } from './use-triage-actions';

/** A bulk action that opens a menu of choices. */
function BulkMenu({
  label,
  icon,
  loading,
  testId,
  children,
}: {
  label: string;
  icon: ReactNode;
  loading?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={icon}
          rightSection={<IconChevronDown size={14} />}
          loading={loading}
          data-testid={testId}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}

/** The bar over the queue while alerts are selected: assign, status, tags and incident. */
export function AlertsBulkBar({ queue, actions }: { queue: AlertQueue; actions: TriageActions }) {
  const { t } = useTranslation();
  const { apply, bulkTarget, setDialog, busy, me } = actions;
  /** Runs an action on the selection, when there is one. */
  const withTarget = (run: (target: Target) => void) => () => {
    const target = bulkTarget();
    if (target) run(target);
  };
  return (
    <SelectionBar selection={queue.selection as never} count={queue.count}>
      <BulkMenu label={t('alerts.bulk.assign')} icon={<IconUser size={14} />} loading={busy} testId="bulk-assign">
        <Menu.Item
          onClick={withTarget((target) => void apply(target, { kind: 'assign', assigneeId: me.id }))}
          data-testid="bulk-assign-me"
        >
          {t('alerts.bulk.assignToMe')}
        </Menu.Item>
        <Menu.Item onClick={withTarget((target) => setDialog({ kind: 'assign', target }))}>
          {t('alerts.bulk.assignTo')}
        </Menu.Item>
        <Menu.Item onClick={withTarget((target) => void apply(target, { kind: 'assign', assigneeId: null }))}>
          {t('alerts.bulk.unassign')}
        </Menu.Item>
      </BulkMenu>
      <BulkMenu label={t('alerts.bulk.status')} icon={<IconCheck size={14} />} loading={busy} testId="bulk-status">
        {(['new', 'in_progress', 'resolved', 'closed'] as const).map((status) => (
          <Menu.Item
            key={status}
            onClick={() => actions.setStatus(status, bulkTarget())}
            data-testid={`bulk-status-${status}`}
          >
            {t(`triage.alertStatus.${status}`)}
            {status === 'resolved' || status === 'closed' ? '…' : ''}
          </Menu.Item>
        ))}
      </BulkMenu>
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconTag size={14} />}
        onClick={withTarget((target) => setDialog({ kind: 'tags', target }))}
        data-testid="bulk-tags"
      >
        {t('alerts.bulk.tags')}
      </Button>
      <BulkMenu label={t('alerts.bulk.incident')} icon={<IconShieldPlus size={14} />} testId="bulk-incident">
        <Menu.Item onClick={withTarget((target) => setDialog({ kind: 'incident', mode: 'existing', target }))}>
          {t('alerts.bulk.addToIncident')}
        </Menu.Item>
        {actions.mayAddIncident && (
          <Menu.Item
            onClick={withTarget((target) => setDialog({ kind: 'incident', mode: 'create', target }))}
            data-testid="bulk-new-incident"
          >
            {t('alerts.bulk.newIncident')}
          </Menu.Item>
        )}
      </BulkMenu>
    </SelectionBar>
  );
}
