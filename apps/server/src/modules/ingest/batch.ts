import type { EndpointEvent, NetworkEvent } from '@vigil/contract';
import type { ParsedMailMessage, SoftwareInventoryItem } from './parsers';

export type BatchKind = 'network' | 'endpoint' | 'mail';

export interface Rejection {
  line: number;
  reason: string;
}

/** One parsed ingest request, ready to be stored: what the ingest routes hand to the pipeline. */
export type BatchInput = {
  companyId: number;
  tokenId: number | null;
  idempotencyKey: string | null;
  rejected: Rejection[];
} &
  /** `texts`: the lines the events were read from, one per event, stored as they arrived. */
  (
    | { kind: 'network'; events: NetworkEvent[]; texts?: string[] }
    /** `inventory`: the packages of the software inventory lines, `inventoryLines` how many lines they came on. */
    | {
        kind: 'endpoint';
        events: EndpointEvent[];
        texts?: string[];
        inventory?: SoftwareInventoryItem[];
        inventoryLines?: number;
      }
    /** `receivedAt`: when the message reached the mail server, if the sender said so (ISO); else now. */
    | { kind: 'mail'; message: ParsedMailMessage | null; receivedAt?: string }
  );
