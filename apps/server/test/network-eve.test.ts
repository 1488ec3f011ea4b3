import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Alert, IngestAnswer, IngestTokenCreated, ListAnswer, StoredEventItem } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import {
  S7_ALERT_HTTP,
  S7_STATS,
  SURICATA7_SAMPLES,
  alertRecordFor,
} from '../src/modules/ingest/parsers/fixtures/eve-suricata7';
import type { TestClient } from './helpers/http-client';
import { createTestDatabase } from './helpers/test-database';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let company: number;
let analyst: TestClient;
let key: string;

const lines = (records: readonly object[]) => records.map((r) => JSON.stringify(r)).join('\n');

async function ingest(body: string): Promise<IngestAnswer> {
  const response = await fetch(`${t.url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as IngestAnswer;
}

async function network(filters: Record<string, unknown>): Promise<StoredEventItem[]> {
  const answer = await analyst.post<ListAnswer<StoredEventItem>>('/api/network/check/', filters);
  expect(answer.status).toBe(200);
  return answer.body.results;
}

let batch: IngestAnswer;

/** The stored health of a company's sensors, by name. */
async function sensorHealthOf(db: Queryable, companyId: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    sql`SELECT * FROM sensor_health WHERE company_id = ${companyId} ORDER BY sensor`,
  );
  return rows;
}

beforeAll(async () => {
  t = await startTestApp();
  company = await buildCompany(t.db, 'Gamma Logistics');
  await buildUser(t.db, {
    username: 'gina',
    companyId: company,
    permissions: [
      { basename: 'network', actions: ['view'] },
      { basename: 'alerts', actions: ['view'] },
    ],
  });
  analyst = t.client();
  await analyst.signIn('gina', 'User-password-1');
  const admin = await t.admin();
  const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
    name: 'gamma lan key',
    company_id: company,
  });
  key = token.body.key;
  batch = await ingest(lines(SURICATA7_SAMPLES));
});
afterAll(async () => {
  await t?.close();
});

describe('EVE records of Suricata 7', () => {
  it('accepts every line, stores the events and keeps the stats record out of them', async () => {
    expect(batch).toMatchObject({ accepted: SURICATA7_SAMPLES.length, rejected: [] });
    const stored = await network({ batch_id: batch.batch_id });
    expect(stored.map((e) => e.event.event_type).sort()).toEqual(
      ['alert', 'dhcp', 'dhcp', 'fileinfo', 'flow', 'smtp', 'ssh', 'tls'].sort(),
    );
    expect(await network({ event_type: 'stats' })).toEqual([]);
  });

  it("keeps the stats record as the sensor's health: its counters and the whole stats object", async () => {
    const [health] = await sensorHealthOf(t.db, company);
    expect(health).toMatchObject({
      sensor: 'sensor-dmz-01',
      uptime: 86412,
      capture_kernel_packets: 91824455,
      capture_kernel_drops: 18230,
      decoder_pkts: 91806225,
      decoder_bytes: 83201941774,
      flows: 801224 + 398117 + 5102 + 12,
      detect_alerts: 1877,
      rules_loaded: 42617,
      rules_failed: 3,
      app_layer_errors: 20,
      stats: S7_STATS.stats,
    });
    expect(new Date(health!.reported_at as string).toISOString()).toBe('2024-03-12T14:10:00.000Z');
  });

  it("replaces a sensor's health by a newer report only; a record without a host is the key's sensor", async () => {
    const at = (ts: string, uptime: number, extra: object = {}) => ({
      ...S7_STATS,
      ...extra,
      timestamp: ts,
      stats: { ...S7_STATS.stats, uptime },
    });
    // Two reports in one batch: the later one is kept, whatever the order of the lines.
    await ingest(lines([at('2024-03-12T14:12:00.000000+0000', 86532), at('2024-03-12T14:11:00.000000+0000', 86472)]));
    // An older report arriving later changes nothing.
    await ingest(lines([at('2024-03-12T13:00:00.000000+0000', 82000)]));
    const { host: _host, ...unnamed } = at('2024-03-12T14:12:00.000000+0000', 5);
    await ingest(lines([unnamed]));
    const health = await sensorHealthOf(t.db, company);
    expect(health.map((h) => [h.sensor, h.uptime])).toEqual([
      ['gamma lan key', 5],
      ['sensor-dmz-01', 86532],
    ]);
  });

  it('filters by the application-layer fields', async () => {
    const types = async (filters: Record<string, unknown>) =>
      (await network({ batch_id: batch.batch_id, ...filters })).map((e) => e.event.event_type).sort();
    expect(await types({ ssh_software: 'libssh2' })).toEqual(['ssh']);
    expect(await types({ ssh_software: 'openssh_8.9' })).toEqual(['ssh']);
    expect(await types({ dhcp_mac: '00-1A-2B-3C-4D-5E' })).toEqual(['dhcp', 'dhcp']);
    expect(await types({ dhcp_mac: ['001a2b3c4d5f', '00:1a:2b:3c:4d:5e'] })).toEqual(['dhcp', 'dhcp']);
    expect(await types({ dhcp_hostname: 'fin-07' })).toEqual(['dhcp', 'dhcp']);
    expect(await types({ dhcp_assigned_ip: '10.20.1.0/24' })).toEqual(['dhcp']);
    expect(await types({ smtp_address: 'cfo@example' })).toEqual(['smtp']);
    expect(await types({ smtp_address: 'billing@' })).toEqual(['smtp']);
    expect(await types({ smtp_address: 'nobody@' })).toEqual([]);
    expect(await types({ tls_serial: '00c49e217a550b3d' })).toEqual(['tls']);
    expect(await types({ tls_serial: '00:c4:9e:21:7a:55:0b:3d' })).toEqual(['tls']);
    expect(await types({ file_stored: true })).toEqual(['fileinfo']);
    expect(await types({ file_stored: false })).toEqual([]);
    const bad = await analyst.post('/api/network/check/', { dhcp_mac: 'laptop', tls_serial: 'zz' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/MAC address/);
    expect(JSON.stringify(bad.body)).toMatch(/serial number in hex/);
  });

  it('gives the normalised fields with the event', async () => {
    const [flow] = await network({ batch_id: batch.batch_id, event_type: 'flow' });
    const detail = await analyst.get<StoredEventItem>(`/api/network/${flow!.id}/`);
    expect(detail.body.event).toMatchObject({ tcp: { flags: ['syn', 'rst', 'ack'], tcp_flags: '16' } });
    const [tls] = await network({ batch_id: batch.batch_id, event_type: 'tls' });
    expect(tls!.event).toMatchObject({ tls: { notafter: '2024-01-01T00:00:00Z', serial: '00:C4:9E:21:7A:55:0B:3D' } });
  });

  it("raises the Suricata alert with the rule's ATT&CK tactic and technique, and its metadata", async () => {
    const alerts = await analyst.post<ListAnswer<Alert>>('/api/alerts/check/', {});
    const raised = alerts.body.results.find((a) => a.title === S7_ALERT_HTTP.alert.signature);
    expect(raised).toBeDefined();
    const alert = await analyst.get<Alert>(`/api/alerts/${raised!.id}/`);
    expect(alert.body.mitre).toEqual(['TA0001', 'T1190']);
    expect(alert.body.detection).toMatchObject({
      ruleId: String(S7_ALERT_HTTP.alert.signature_id),
      metadata: { signature_severity: ['Major'], deployment: ['Perimeter', 'Internal'], updated_at: ['2020_08_19'] },
    });
  });
});

// A rule that ships with Suricata, when the shared data folder is beside the repository.
const RULES = path.resolve(import.meta.dirname, '../../../../shared/data/suricata/rules');

describe.skipIf(!existsSync(RULES))('an alert of a real Suricata rule', () => {
  it('carries the ATT&CK ids of the metadata keyword Emerging Threats rules add', async () => {
    const text = readFileSync(
      path.join(
        RULES,
        readdirSync(RULES)
          .filter((f) => f.endsWith('.rules'))
          .sort()[0]!,
      ),
      'utf8',
    );
    const real = text.split('\n').find((line) => line.startsWith('alert '))!;
    const rule = real.replace(
      /\bsid\s*:/,
      'metadata:mitre_tactic_id TA0002, mitre_technique_id T1059, mitre_subtechnique_id T1059.004, signature_severity Minor; sid:',
    );
    const record = alertRecordFor(rule, '2024-03-13T10:00:00.000000+0000');
    await ingest(lines([record]));
    const sid = /sid\s*:\s*(\d+)/.exec(real)![1]!;
    const { rows } = await t.db.query<{ mitre: string[]; detection: { ruleId: string; metadata: object } }>(
      sql`SELECT mitre, detection FROM alerts WHERE company_id = ${company} AND detection ->> 'ruleId' = ${sid}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mitre).toEqual(['TA0002', 'T1059', 'T1059.004']);
    expect(rows[0]!.detection.metadata).toMatchObject({ signature_severity: ['Minor'] });
  });
});

describe('the migration that moves stored stats records', () => {
  it('keeps the latest of each sensor as its health and takes them out of the network events', async () => {
    const db = await createTestDatabase();
    try {
      const all = readMigrations();
      const mine = all.findIndex((m) => m.name === 'network_protocol_fields_sensor_health');
      expect(mine).toBeGreaterThan(0);
      await migrate(db.db, all.slice(0, mine));
      const { rows } = await db.db.query<{ id: number }>(
        sql`INSERT INTO companies (name, kind) VALUES ('Delta', 'customer') RETURNING id`,
      );
      const delta = rows[0]!.id;
      const token = await db.db.query<{ id: number }>(sql`
        INSERT INTO ingest_tokens (company_id, name, key_hash, key_prefix) VALUES (${delta}, 'delta tap', 'h', 'p') RETURNING id`);
      const batchRow = await db.db.query<{ id: number }>(sql`
        INSERT INTO ingest_batches (company_id, kind, token_id, accepted) VALUES (${delta}, 'network', ${token.rows[0]!.id}, 4) RETURNING id`);
      const stats = (uptime: number, drops: number) => ({
        uptime,
        capture: { kernel_packets: 1000, kernel_drops: drops },
        flow: { tcp: 5, udp: 2 },
        app_layer: { error: { http: { gap: 1, parser: 2 } } },
        detect: { engines: [{ rules_loaded: 10, rules_failed: 1 }], alert: 4 },
      });
      const row = (ts: string, type: string, sensor: string | null, raw: object) => sql`
        (${delta}, ${ts}::timestamptz, ${batchRow.rows[0]!.id}, ${type}, ${sensor}, '{}'::json, ${JSON.stringify(raw)}::json)`;
      await db.db.query(sql`
        INSERT INTO network_events (company_id, ts, batch_id, event_type, sensor, event, raw) VALUES
        ${sql.join([
          row('2024-03-01T10:00:00Z', 'stats', 'tap-1', { stats: stats(100, 1) }),
          row('2024-03-01T11:00:00Z', 'stats', 'tap-1', { stats: stats(3700, 9) }),
          row('2024-03-01T11:00:00Z', 'stats', null, { stats: stats(50, 0) }),
          row('2024-03-01T11:00:00Z', 'flow', 'tap-1', { flow: {} }),
        ])}`);
      await migrate(db.db, all);
      const health = await sensorHealthOf(db.db, delta);
      expect(health.map((h) => [h.sensor, h.uptime, h.capture_kernel_drops, h.flows, h.app_layer_errors])).toEqual([
        ['delta tap', 50, 0, 7, 3],
        ['tap-1', 3700, 9, 7, 3],
      ]);
      expect(health[1]).toMatchObject({ rules_loaded: 10, rules_failed: 1, detect_alerts: 4 });
      const left = await db.db.query<{ event_type: string }>(sql`SELECT event_type FROM network_events`);
      expect(left.rows.map((r) => r.event_type)).toEqual(['flow']);
    } finally {
      await db.drop();
    }
  });
});
