import type { Alert } from '../../api/alerts';
import { AssignModal } from '../assign-modal';
import { IncidentModal } from '../incident-modal';
import { ResolutionModal } from '../resolution-modal';
import { ShortcutHelp } from '../shortcut-help';
import { TagModal } from '../tag-modal';
import type { TriageActions } from './use-triage-actions';

const severityRank = { info: 0, low: 1, medium: 2, high: 3, critical: 4 } as const;

/** The queue's dialogs (five Mantine modals); the page mounts them after its first paint. */
export function AlertsDialogs({ actions }: { actions: TriageActions }) {
  const { dialog, setDialog, apply } = actions;
  const close = () => setDialog(null);
  const incidentDialog = dialog?.kind === 'incident' ? dialog : null;
  const incidentRows = incidentDialog?.target.rows ?? [];
  const maxSeverity = incidentRows.reduce<Alert['severity']>(
    (max, row) => (severityRank[row.severity] > severityRank[max] ? row.severity : max),
    'info',
  );
  return (
    <>
      <ResolutionModal
        status={dialog?.kind === 'resolution' ? dialog.status : null}
        count={dialog?.kind === 'resolution' ? dialog.target.size : 0}
        onPick={actions.pickResolution}
        onClose={close}
      />
      <AssignModal
        opened={dialog?.kind === 'assign'}
        onClose={close}
        onAssign={(userId) => {
          if (dialog?.kind === 'assign') void apply(dialog.target, { kind: 'assign', assigneeId: userId });
          close();
        }}
      />
      <TagModal
        opened={dialog?.kind === 'tags'}
        onClose={close}
        onApply={(kind, tags) => {
          if (dialog?.kind === 'tags') void apply(dialog.target, { kind, tags });
          close();
        }}
      />
      <IncidentModal
        opened={incidentDialog !== null}
        defaultMode={incidentDialog?.mode ?? 'existing'}
        allowCreate={actions.mayAddIncident}
        defaultTitle={incidentRows[0]?.title ?? ''}
        defaultSeverity={maxSeverity}
        busy={actions.busy}
        onChoose={(choice) => void actions.chooseIncident(choice)}
        onClose={close}
      />
      <ShortcutHelp opened={dialog?.kind === 'help'} onClose={close} />
    </>
  );
}
