import { expect } from 'vitest';

let port = 40000;

/** An EVE flow record to `destPort`, a few minutes old; each one its own event (its own source port). */
export function networkFlow(destPort: number) {
  port++;
  return {
    timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
    event_type: 'flow',
    src_ip: '10.20.1.15',
    src_port: port,
    dest_ip: '192.0.2.44',
    dest_port: destPort,
    proto: 'TCP',
    flow: { pkts_toserver: 1, pkts_toclient: 1, bytes_toserver: 60, bytes_toclient: 60 },
  };
}

/** Sends EVE records through the network ingest API with a company's key; every one must be accepted. */
export async function ingestNetwork(url: string, key: string, records: readonly object[]): Promise<void> {
  const response = await fetch(`${url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  const body = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.accepted).toBe(records.length);
}
