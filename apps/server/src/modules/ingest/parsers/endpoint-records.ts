import type { EndpointEvent } from '@vigil/contract';
import { normaliseEndpoint } from './endpoint';
import { isInventoryRecord, readInventory, type SoftwareInventoryItem } from './inventory';
import { parseJsonLines, type LineParseOptions, type LineResult } from './lines';

/** One line of the endpoint stream: an event, or a software inventory line and its packages. */
export type EndpointRecord =
  { kind: 'event'; event: EndpointEvent } | { kind: 'inventory'; items: SoftwareInventoryItem[] };

/** Parses the endpoint stream, one JSON object per line: events and inventory lines. Never throws. */
export function parseEndpointRecords(
  body: string | Uint8Array,
  options: LineParseOptions = {},
): LineResult<EndpointRecord>[] {
  return parseJsonLines(body, options, (record) =>
    isInventoryRecord(record)
      ? { kind: 'inventory', items: readInventory(record) }
      : { kind: 'event', event: normaliseEndpoint(record) },
  );
}
