import type { Incident } from '@vigil/contract';
import { canIncidentTransition, incidentStatuses, incidentTransitions } from '@vigil/contract/client';

export type IncidentStatus = Incident['status'];

/** The statuses an incident in `status` may move to, in workflow order. */
export function allowedTransitions(status: IncidentStatus): IncidentStatus[] {
  const next = incidentTransitions[status];
  return incidentStatuses.filter((candidate) => next.includes(candidate));
}

export function canTransition(from: IncidentStatus, to: IncidentStatus): boolean {
  return from !== to && canIncidentTransition(from, to);
}

/** Statuses that end the work on an incident: moving into one asks for a resolution summary. */
export function isClosingStatus(status: IncidentStatus): boolean {
  return status === 'resolved' || status === 'closed';
}

/** Moving back from resolved/closed into work. */
export function isReopening(from: IncidentStatus, to: IncidentStatus): boolean {
  return isClosingStatus(from) && !isClosingStatus(to);
}
