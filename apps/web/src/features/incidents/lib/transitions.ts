import { incidentStatuses, type Incident } from '@vigil/contract';

export type IncidentStatus = Incident['status'];

/**
 * The incident workflow: where each status may go next. Work moves forward (open → investigating →
 * contained → resolved → closed, steps may be skipped); a resolved or closed incident may only be
 * reopened into investigation, so its SLA and history stay honest.
 */
const transitions: Record<IncidentStatus, readonly IncidentStatus[]> = {
  open: ['investigating', 'contained', 'resolved', 'closed'],
  investigating: ['contained', 'resolved', 'closed'],
  contained: ['investigating', 'resolved', 'closed'],
  resolved: ['closed', 'investigating'],
  closed: ['investigating'],
};

/** The statuses an incident in `status` may move to, in workflow order. */
export function allowedTransitions(status: IncidentStatus): IncidentStatus[] {
  const next = transitions[status];
  return incidentStatuses.filter((candidate) => next.includes(candidate));
}

export function canTransition(from: IncidentStatus, to: IncidentStatus): boolean {
  return transitions[from].includes(to);
}

/** Statuses that end the work on an incident: moving into one asks for a resolution summary. */
export function isClosingStatus(status: IncidentStatus): boolean {
  return status === 'resolved' || status === 'closed';
}

/** Moving back from resolved/closed into work. */
export function isReopening(from: IncidentStatus, to: IncidentStatus): boolean {
  return isClosingStatus(from) && !isClosingStatus(to);
}
