import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IngestAnswer, IngestTokenCreated, ListAnswer, StoredEventItem } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Endpoint ingest end to end: flat Windows JSON (NXLog, HELK) stored with the normalised fields
 * analysts filter by, lines refused per line with their reason, the filters over the new columns.
 */

let t: TestApp;
let analyst: TestClient;
let key: string;

async function ingest(body: string): Promise<{ status: number; body: IngestAnswer }> {
  const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as IngestAnswer };
}

const count = async (filters: object) => {
  const answer = await analyst.post<{ count: number }>('/api/eclipse_events/count/', filters);
  expect(answer.status).toBe(200);
  return answer.body.count;
};

beforeAll(async () => {
  t = await startTestApp();
  const company = await buildCompany(t.db, 'Gamma Works');
  await buildUser(t.db, {
    username: 'gina',
    companyId: company,
    permissions: [{ basename: 'eclipse_events', actions: ['view'] }],
  });
  analyst = t.client();
  await analyst.signIn('gina', 'User-password-1');
  const admin = await t.admin();
  const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'nxlog', company_id: company });
  expect(token.status).toBe(201);
  key = token.body.key;
});
afterAll(async () => {
  await t?.close();
});

const HOST = 'WORKSTATION5';
const SYSMON = {
  SourceName: 'Microsoft-Windows-Sysmon',
  Channel: 'Microsoft-Windows-Sysmon/Operational',
  Hostname: HOST,
};

const lsassAccess = {
  ...SYSMON,
  EventID: 10,
  TimeCreated: '2026-11-20 19:50:09.241',
  SourceProcessGUID: '{39e4a257-9c59-5f8c-6f0a-000000000700}',
  SourceProcessId: '5872',
  SourceImage: 'C:\\Windows\\System32\\rundll32.exe',
  TargetProcessGUID: '{39e4a257-f12b-5f8b-0c00-000000000700}',
  TargetProcessId: '684',
  TargetImage: 'C:\\Windows\\system32\\lsass.exe',
  GrantedAccess: '0x1FFFFF',
};
const processCreate = {
  ...SYSMON,
  EventID: 1,
  TimeCreated: '2026-11-20 19:50:08.100',
  ProcessGuid: '{39e4a257-9c59-5f8c-6f0a-000000000700}',
  ProcessId: '5872',
  Image: 'C:\\Users\\Public\\r.exe',
  OriginalFileName: 'RUNDLL32.EXE',
  CommandLine: 'r.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 684 C:\\Users\\Public\\l.dmp full',
  User: 'WORKSTATION5\\wardog',
  LogonId: '0xC61D9',
  IntegrityLevel: 'High',
  ParentProcessGuid: '{39e4a257-9c50-5f8c-6e0a-000000000700}',
  ParentProcessId: '3312',
  ParentImage: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  ParentUser: 'WORKSTATION5\\wardog',
};

describe('endpoint ingest', () => {
  it('stores flat Windows JSON with the fields analysts filter by, and refuses lines it cannot read', async () => {
    const answer = await ingest(
      [
        JSON.stringify(processCreate),
        JSON.stringify(lsassAccess),
        JSON.stringify({ '@timestamp': '2026-11-20T19:50:10Z', host: 'notobj', event: { action: 'start' } }),
        JSON.stringify({ '@timestamp': '2026-11-20T19:50:10Z', message: 'nothing else' }),
        JSON.stringify({ ...lsassAccess, GrantedAccess: { mask: 1 } }),
      ].join('\n'),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(2);
    expect(answer.body.rejected).toEqual([
      { line: 3, reason: 'line 3: host must be an object, found "notobj"' },
      {
        line: 4,
        reason:
          'line 4: only a timestamp was recognised: no host, event, process, file, user, network, registry or DNS field',
      },
      { line: 5, reason: 'line 5: GrantedAccess must be text or a number, found an object' },
    ]);

    const { rows } = await t.db.query<Record<string, unknown>>(sql`
      SELECT source_format, action, event_code, process_name, target_process_name, granted_access,
             original_file_name, integrity_level, logon_id, user_name
      FROM endpoint_events WHERE batch_id = ${answer.body.batch_id} ORDER BY ts`);
    expect(rows).toEqual([
      {
        source_format: 'nxlog',
        action: 'process-create',
        event_code: '1',
        process_name: 'r.exe',
        target_process_name: null,
        granted_access: null,
        original_file_name: 'RUNDLL32.EXE',
        integrity_level: 'High',
        logon_id: '0xc61d9',
        user_name: 'wardog',
      },
      {
        source_format: 'nxlog',
        action: 'process-access',
        event_code: '10',
        process_name: 'rundll32.exe',
        target_process_name: 'lsass.exe',
        granted_access: '0x1fffff',
        original_file_name: null,
        integrity_level: null,
        logon_id: null,
        user_name: null,
      },
    ]);

    // The detail carries the normalised fields; the list filters by them, names in either case.
    const listed = await analyst.post<ListAnswer<StoredEventItem>>('/api/eclipse_events/check/', {
      target_process_name: 'LSASS.EXE',
    });
    expect(listed.body.count).toBe(1);
    const detail = await analyst.get<StoredEventItem>(`/api/eclipse_events/${listed.body.results[0]!.id}/`);
    expect(detail.body.event).toMatchObject({
      event: { action: 'process-access', shipper_action: null },
      target_process: { pid: 684, name: 'lsass.exe', granted_access: '0x1fffff' },
    });
    expect(await count({ granted_access: '0x1FFFFF' })).toBe(1);
    expect(await count({ original_file_name: ['rundll32.exe'] })).toBe(1);
    expect(await count({ integrity_level: 'high' })).toBe(1);
    expect(await count({ logon_id: '0xC61D9' })).toBe(1);
    expect(await count({ action: 'process-access', source_format: 'nxlog' })).toBe(1);
    const bad = await analyst.post<{ errors?: Record<string, unknown> }>('/api/eclipse_events/count/', {
      granted_access: 'everything',
    });
    expect(bad.status).toBe(400);
  });
});

// The public OTRF Security-Datasets recordings, when shared data is present beside the repository.
const OTRF = path.resolve(import.meta.dirname, '../../../../shared/data/endpoint/otrf');

describe.skipIf(!existsSync(OTRF))('the OTRF recordings through the ingest API', () => {
  it('accepts every line of each recording, and finds the LSASS dump by its target process', async () => {
    const lsass = { target_process_name: 'lsass.exe', action: 'process-access' };
    const before = await count({});
    const lsassBefore = await count(lsass);
    let lines = 0;
    let lsassOpened = 0;
    for (const file of readdirSync(OTRF).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(path.join(OTRF, file), 'utf8');
      const records = text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      lines += records.length;
      lsassOpened += records.filter(
        (r) => r.EventID === 10 && String(r.TargetImage).toLowerCase().endsWith('\\lsass.exe'),
      ).length;
      const answer = await ingest(text);
      expect(answer.status, file).toBe(200);
      expect(answer.body.rejected, file).toEqual([]);
      expect(answer.body.accepted, file).toBe(records.length);
    }
    expect(await count({}), 'stored').toBe(before + lines);
    expect(lsassOpened).toBeGreaterThan(0);
    expect(await count(lsass)).toBe(lsassBefore + lsassOpened);
    expect(await count({ host_name: HOST, action: 'process-create' })).toBeGreaterThanOrEqual(3);
  });
});
