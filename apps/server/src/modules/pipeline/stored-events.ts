import type { EndpointEvent, MailMessage, NetworkEvent } from '@vigil/contract';

/**
 * An event as stored by ingest: the normalised event with the id and time it was stored under.
 * This is what detection stages (Suricata alerts, indicators) read; their Detections point back
 * at it through EventRef (`kind`, `id`, `ts`).
 */
export type StoredEvent =
  | { kind: 'network'; id: number; ts: string; companyId: number; event: NetworkEvent }
  | { kind: 'endpoint'; id: number; ts: string; companyId: number; event: EndpointEvent }
  | { kind: 'mail'; id: number; ts: string; companyId: number; event: MailMessage };
