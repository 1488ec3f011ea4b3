import type {
  Alert,
  Asset,
  Employee,
  Incident,
  IncidentDetail,
  ListAnswer,
  Rule,
  RuleKind,
  StoredEventItem,
  WarehouseHash,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from '../src/db/sql';
import { loadDemoAtStart } from '../src/modules/demo/demo-start';
import { generateDemo } from '../src/modules/demo/generate';
import { SIGNATURES } from '../src/modules/demo/internet';
import { DemoRefused, loadDemo, type DemoSummary } from '../src/modules/demo/load-demo';
import { MALICIOUS_HTML_SUBJECT } from '../src/modules/demo/mail';
import { demoRuleFiles } from '../src/modules/demo/rules/load-rules';
import { type TestClient } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let demo: DemoSummary;
let admin: TestClient;
let northwind: number;
let aurora: number;
/** When the load began: the demo's traffic all happened before it. */
let loadStarted: number;

const kinds = ['network', 'eclipse_events', 'mailing'] as const;

async function signedIn(username: string): Promise<TestClient> {
  const account = demo.accounts.find((a) => a.username === username);
  if (!account) throw new Error(`no demo account ${username}`);
  const client = t.client();
  await client.signIn(username, account.password);
  return client;
}

/** Every alert the filters give, page by page. */
async function allAlerts(filters: Record<string, unknown>): Promise<Alert[]> {
  const out: Alert[] = [];
  let url: string | null = '/api/alerts/check/?page_size=500';
  while (url !== null) {
    const answer: { status: number; body: ListAnswer<Alert> } = await admin.post<ListAnswer<Alert>>(url, filters);
    expect(answer.status).toBe(200);
    out.push(...answer.body.results);
    const next = answer.body.next === null ? null : new URL(answer.body.next, 'http://local');
    url = next === null ? null : next.pathname + next.search;
  }
  return out;
}

async function count(client: TestClient, path: string, filters: Record<string, unknown>): Promise<number> {
  const answer = await client.post<{ count: number }>(path, filters);
  expect(answer.status).toBe(200);
  return answer.body.count;
}

beforeAll(async () => {
  t = await startTestApp();
  loadStarted = Date.now();
  demo = await loadDemo(t.app, t.db, { scale: 'small', seed: 7, passwords: 'permanent' });
  admin = await t.admin();
  northwind = demo.companies.find((c) => c.name === 'Northwind Logistics')!.id;
  aurora = demo.companies.find((c) => c.name === 'Aurora Clinic')!.id;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('demo data', () => {
  it('creates the two customer companies, and an analyst and an administrator in each company', async () => {
    const companies = await admin.post<ListAnswer<{ id: number; name: string; kind: string }>>(
      '/api/companies/check/?page_size=50',
      {},
    );
    const customers = companies.body.results.filter((c) => c.kind === 'customer').map((c) => c.name);
    expect(customers.sort()).toEqual(['Aurora Clinic', 'Northwind Logistics']);
    expect(demo.accounts.map((a) => `${a.company}/${a.role}`).sort()).toEqual([
      'Aurora Clinic/Company administrator',
      'Aurora Clinic/Security analyst',
      'Northwind Logistics/Company administrator',
      'Northwind Logistics/Security analyst',
      'Vigil/SOC analyst',
      'Vigil/SOC lead',
    ]);
    // Passwords are generated for every account, never shared.
    expect(new Set(demo.accounts.map((a) => a.password)).size).toBe(demo.accounts.length);
    const me = await (await signedIn('tom.ramirez')).get<{ company_id: number }>('/api/users/me/');
    expect(me.status).toBe(200);
    expect(me.body.company_id).toBe(northwind);
    // Every demo account starts on its dashboard.
    for (const account of demo.accounts) {
      const widgets = await (await signedIn(account.username)).get<unknown[]>('/api/widgets/');
      expect([account.username, widgets.status]).toEqual([account.username, 200]);
    }
  });

  it('lists events of all three kinds for each company through the list endpoints', async () => {
    for (const company of [northwind, aurora]) {
      for (const kind of kinds) {
        expect(
          await count(admin, `/api/${kind}/count/`, { company_id: company }),
          `${kind} of ${company}`,
        ).toBeGreaterThan(0);
      }
    }
    expect(demo.events.rejected).toBe(0);
    expect(demo.events.network).toBeGreaterThan(200);
    expect(demo.events.endpoint).toBeGreaterThan(100);
    expect(demo.events.mail).toBeGreaterThanOrEqual(20);
  });

  it('gives each customer an estate: tens of assets with owners, its staff, and the software of its hosts', async () => {
    for (const company of [northwind, aurora]) {
      const assets = (await admin.post<ListAnswer<Asset>>('/api/assets/check/?page_size=500', { company_id: company }))
        .body.results;
      expect(assets.length, `assets of ${company}`).toBeGreaterThanOrEqual(10);
      const owned = assets.filter((a) => a.owner_name !== null);
      expect(owned.length, `owned assets of ${company}`).toBeGreaterThanOrEqual(5);
      expect(assets.some((a) => a.criticality === 'critical')).toBe(true);
      expect(await count(admin, '/api/employees/count/', { company_id: company })).toBeGreaterThanOrEqual(7);
      const products = await count(admin, '/api/software/count/', { company_id: company });
      expect(products, `software of ${company}`).toBeGreaterThanOrEqual(6);
      // Owners are the company's own people.
      for (const asset of owned) {
        const owner = await admin.get<Employee>(`/api/employees/${asset.owner_employee_id}/`);
        expect(owner.body.company_id).toBe(company);
      }
    }
  });

  it("never shows one company's events, alerts or incidents to the other", async () => {
    const tom = await signedIn('tom.ramirez');
    const omar = await signedIn('omar.haddad');
    for (const kind of kinds) {
      const page = await tom.post<ListAnswer<StoredEventItem>>(`/api/${kind}/check/?page_size=500`, {});
      expect(page.status).toBe(200);
      expect(page.body.results.length).toBeGreaterThan(0);
      expect(new Set(page.body.results.map((e) => e.company_id))).toEqual(new Set([northwind]));
      expect(await count(tom, `/api/${kind}/count/`, { company_id: aurora })).toBe(0);
      const theirs = await admin.post<ListAnswer<StoredEventItem>>(`/api/${kind}/check/?page_size=1`, {
        company_id: aurora,
      });
      const id = theirs.body.results[0]!.id;
      expect((await tom.get(`/api/${kind}/${id}/`)).status).toBe(404);
      expect((await omar.get(`/api/${kind}/${id}/`)).status).toBe(200);
    }
    const alerts = await omar.post<ListAnswer<Alert>>('/api/alerts/check/?page_size=500', {});
    expect(new Set(alerts.body.results.map((a) => a.company_id))).toEqual(new Set([aurora]));
    const incidents = await tom.post<ListAnswer<Incident>>('/api/incidents/check/?page_size=100', {});
    expect(new Set(incidents.body.results.map((i) => i.company_id))).toEqual(new Set([northwind]));
  });

  it('raises alerts from every source and of every severity, and triages some of them', async () => {
    for (const company of [northwind, aurora]) {
      for (const source of ['network', 'endpoint', 'mail']) {
        expect(await count(admin, '/api/alerts/count/', { company_id: company, source }), source).toBeGreaterThan(0);
      }
    }
    for (const severity of ['info', 'low', 'medium', 'high', 'critical']) {
      expect(await count(admin, '/api/alerts/count/', { severity }), severity).toBeGreaterThan(0);
    }
    expect(await count(admin, '/api/alerts/count/', { status: ['resolved', 'closed'] })).toBeGreaterThan(0);
    expect(await count(admin, '/api/alerts/count/', { status: 'in_progress' })).toBeGreaterThan(0);
    // Suricata alerts keep the time of the traffic, days before the load.
    const oldest = await admin.post<ListAnswer<Alert>>('/api/alerts/check/?page_size=1&ordering=first_seen', {
      source: 'network',
    });
    const first = Date.parse(oldest.body.results[0]!.first_seen);
    expect(Date.parse(oldest.body.results[0]!.created_at) - first).toBeGreaterThan(24 * 3600_000);
  });

  it('loads a rule set of each kind before the traffic, and the traffic fires every kind', async () => {
    const files = demoRuleFiles();
    expect(demo.rules).toEqual({ suricata: SIGNATURES.length, sigma: files.sigma.length, yara: 3, thresholds: 1 });
    const rules = {} as Record<RuleKind, Rule[]>;
    for (const kind of ['suricata', 'sigma', 'yara'] as const) {
      const list = await admin.post<ListAnswer<Rule>>(`/api/rules/${kind}/check/?page_size=100`, {});
      expect(list.status).toBe(200);
      rules[kind] = list.body.results;
      expect([kind, list.body.count, list.body.results.every((r) => r.scope === 'all' && r.effective_enabled)]).toEqual(
        [kind, demo.rules[kind], true],
      );
    }

    // Every Suricata alert of the demo is one of a stored rule, and shows its text.
    const network = (await allAlerts({ source: 'network' })).filter((a) => a.detection.type === 'rule');
    expect(network.length).toBeGreaterThan(0);
    const suricataIds = new Set(rules.suricata.map((r) => r.id));
    for (const alert of network) {
      expect([alert.title, suricataIds.has(alert.detection.storedRuleId as number)]).toEqual([alert.title, true]);
      expect(alert.description).toContain(`Rule: alert `);
    }
    // Northwind's threshold.config suppresses the .cloud lookups signature for its own network.
    const cloud = rules.suricata.find((r) => r.rule_key === '1:2027865')!;
    expect(await count(admin, '/api/alerts/count/', { company_id: northwind, rule_id: cloud.id })).toBe(0);

    // Each Sigma rule fires on its step of the story, and only there: the story has eleven such
    // events (two hosts run the encoded PowerShell), the unit test of the rules checks which.
    let sigmaDetections = 0;
    for (const rule of rules.sigma) {
      const alerts = await allAlerts({ rule_id: rule.id });
      expect([rule.title, alerts.length > 0]).toEqual([rule.title, true]);
      expect(alerts.every((a) => a.source === 'endpoint' && a.detection.engine === 'sigma')).toBe(true);
      sigmaDetections += alerts.reduce((sum, a) => sum + a.count, 0);
    }
    expect(sigmaDetections).toBe(11);

    // The YARA scan ran over the mail attachments before the demo said it was loaded.
    const yara = await allAlerts({ rule_id: rules.yara.map((r) => r.id) });
    expect(yara.map((a) => `${a.title} / ${a.company_id === northwind ? 'northwind' : 'aurora'}`).sort()).toEqual([
      'Demo_Browser_Credential_Stealer / aurora',
      'Demo_Executable_Named_As_Document / aurora',
      'Demo_Office_Macro_Dll_Dropper / northwind',
    ]);
  });

  it('keeps saved searches shared with both customers, whose first run reported what the scenario did', async () => {
    const tom = await signedIn('tom.ramirez');
    const saved = await tom.post<ListAnswer<{ name: string; enabled: boolean; last_run_at: string | null }>>(
      '/api/search/saved/check/?page_size=50',
      {},
    );
    expect(saved.status).toBe(200);
    expect(saved.body.results.map((s) => s.name).sort()).toEqual([
      'Credential dumping tools',
      'DLL registered by rundll32',
      'Encoded PowerShell',
    ]);
    expect(saved.body.results.every((s) => s.enabled && s.last_run_at !== null)).toBe(true);
    const reports = await admin.post<ListAnswer<{ saved_search_name: string; company_id: number; hit_count: number }>>(
      '/api/search/reports/check/?page_size=50',
      {},
    );
    expect(reports.status).toBe(200);
    expect(reports.body.results.length).toBeGreaterThan(0);
    expect(reports.body.results.every((r) => r.hit_count > 0)).toBe(true);
    // A customer reads its own company's reports only.
    const own = await tom.post<ListAnswer<{ company_id: number }>>('/api/search/reports/check/?page_size=50', {});
    expect(own.body.results.length).toBeGreaterThan(0);
    expect(own.body.results.every((r) => r.company_id === northwind)).toBe(true);
  });

  it('opens incidents with comments and tasks, one of them resolved', async () => {
    expect(demo.incidents).toBeGreaterThanOrEqual(2);
    for (const company of [northwind, aurora]) {
      expect(await count(admin, '/api/incidents/count/', { company_id: company })).toBeGreaterThan(0);
    }
    const list = await admin.post<ListAnswer<Incident>>('/api/incidents/check/?page_size=100', {
      search: 'Fake invoice macro',
    });
    const invoice = list.body.results[0]!;
    expect(invoice).toMatchObject({ company_id: northwind, status: 'investigating', severity: 'critical' });
    const detail = await admin.get<IncidentDetail>(`/api/incidents/${invoice.id}/`);
    expect(detail.body.alert_ids.length).toBeGreaterThan(0);
    expect(detail.body.tasks.map((task) => task.status)).toEqual(
      expect.arrayContaining(['done', 'in_progress', 'todo']),
    );
    expect(
      detail.body.timeline.some((entry) => entry.kind === 'comment' && entry.body.includes('Enable Content')),
    ).toBe(true);
    expect(await count(admin, '/api/incidents/count/', { status: 'resolved' })).toBeGreaterThan(0);
  });

  it('stores the malicious HTML mail with its script, handler and remote image', async () => {
    const found = await admin.post<ListAnswer<StoredEventItem>>('/api/mailing/check/', {
      company_id: northwind,
      subject: MALICIOUS_HTML_SUBJECT,
    });
    expect(found.body.count).toBe(1);
    const mail = await admin.get<StoredEventItem & { event: { html: string; headers: { spf: string } } }>(
      `/api/mailing/${found.body.results[0]!.id}/`,
    );
    expect(mail.body.event.html).toContain('<script>');
    expect(mail.body.event.html).toContain('onerror=');
    expect(mail.body.event.html).toContain('http://tracker.example/');
    expect(mail.body.event.headers.spf).toBe('fail');
  });

  it('keeps the traffic’s own times for mail and the files it carried, not the minute of the load', async () => {
    const mails = await admin.post<ListAnswer<StoredEventItem>>('/api/mailing/check/?page_size=500', {});
    expect(mails.body.results.length).toBeGreaterThanOrEqual(20);
    for (const mail of mails.body.results) {
      // Received (the mail server's delivery) within a minute after the Date header said it was sent.
      const late = Date.parse(mail.ts) - Date.parse(mail.event.date as string);
      expect([mail.id, late >= 0 && late < 60_000]).toEqual([mail.id, true]);
    }
    const files = await admin.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/?page_size=500', {
      source: 'mail',
    });
    expect(files.body.results.length).toBeGreaterThan(0);
    for (const file of files.body.results) {
      expect([file.sha256, Date.parse(file.last_seen) < loadStarted]).toEqual([file.sha256, true]);
    }
  });

  it('refuses to load twice with a clear message and changes nothing', async () => {
    const rows = async () => {
      const { rows } = await t.db.query<{ companies: number; users: number; batches: number; alerts: number }>(sql`
        SELECT (SELECT count(*) FROM companies)::int4 AS companies, (SELECT count(*) FROM users)::int4 AS users,
               (SELECT count(*) FROM ingest_batches)::int4 AS batches, (SELECT count(*) FROM alerts)::int4 AS alerts`);
      return rows[0];
    };
    const before = await rows();
    await expect(loadDemo(t.app, t.db, { scale: 'small', seed: 7 })).rejects.toThrow(DemoRefused);
    await expect(loadDemo(t.app, t.db, { scale: 'small', seed: 8 })).rejects.toThrow(/already loaded/);
    expect(await rows()).toEqual(before);
  });

  it('VIGIL_DEMO=1 leaves a database with customers alone and says so', async () => {
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      await loadDemoAtStart(t.app, t.db, { dataDir: '/nonexistent', demo: { ...t.config.demo, scale: 'small' } });
    } finally {
      write.mockRestore();
    }
    expect(printed.join('')).toMatch(/^Demo data not loaded: the database already holds customer companies or events/);
  });

  it('generates the same data from the same seed and different data from another', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const lines = (seed: number) =>
      generateDemo({ seed, scale: 'small', now }).customers.flatMap((c) => [
        ...c.network.map((l) => l.line),
        ...c.endpoint.map((l) => l.line),
        ...c.mail.map((m) => m.raw.toString('base64')),
      ]);
    const first = lines(11);
    expect(lines(11)).toEqual(first);
    expect(lines(12)).not.toEqual(first);
    const oldest = Math.min(...generateDemo({ seed: 11, scale: 'small', now }).customers.map((c) => c.network[0]!.at));
    expect(now - oldest).toBeLessThanOrEqual(14 * 24 * 3600_000);
    expect(now - oldest).toBeGreaterThan(7 * 24 * 3600_000);
  });
});
