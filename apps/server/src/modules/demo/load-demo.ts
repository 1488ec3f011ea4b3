import { randomBytes } from 'node:crypto';
import type { Alert, Company, IngestAnswer, Permission } from '@vigil/contract';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { RETRO_HUNT_JOB } from '../indicators/retro-hunt';
import { YARA_SCAN_JOB } from '../rules/yara/yara-scan.service';
import { DemoApi, withTemporaryApiKey } from './api';
import { finishEstate, setUpEstate } from './estate';
import type { DemoFile } from './files';
import { existingDemoObjects, pendingJobs, providerAdministrator } from './demo.repository';
import { batches, generateDemo, type CustomerTraffic, type DemoDataset } from './generate';
import { facts, incidentPlans } from './incident-plans';
import { Random } from './random';
import { importDemoRules, type DemoRuleCounts } from './rules/load-rules';
import { ANALYST_PERMISSIONS, CUSTOMER_ADMIN_PERMISSIONS, PROVIDER_LEAD_PERMISSIONS } from './role-permissions';
import { createDemoSavedSearches, runDemoSavedSearches } from './saved-searches';
import {
  CUSTOMERS,
  PROVIDER_ACCOUNTS,
  PROVIDER_UNITS,
  type DemoAccountPlan,
  type DemoCustomer,
  type DemoScale,
} from './scenario';
import { DAY, HOUR } from './timeline';

/** Lines per ingest request, as a sensor batches its output. */
const NETWORK_BATCH = 2000;
const ENDPOINT_BATCH = 1000;

export const DEFAULT_DEMO_SEED = 20261122;

export interface LoadDemoOptions {
  scale?: DemoScale;
  seed?: number;
  /** The end of the demo's two weeks; now when absent. */
  now?: Date;
  /**
   * `one-time` (default): the accounts must choose a new password at the first sign-in, like the
   * first administrator. `permanent`: each account has already changed its one-time password to
   * the one reported (through the password-change API), for automated browser tests.
   */
  passwords?: 'one-time' | 'permanent';
  /** Progress lines. */
  log?: (line: string) => void;
}

/** A console account the demo created. */
export interface DemoAccount {
  username: string;
  password: string;
  /** Whether the password must be changed at the first sign-in. */
  mustChange: boolean;
  company: string;
  companyId: number;
  role: string;
  fullName: string;
}

export interface DemoSummary {
  seed: number;
  scale: DemoScale;
  companies: { id: number; name: string }[];
  accounts: DemoAccount[];
  events: { network: number; endpoint: number; mail: number; rejected: number };
  /** Detection rules stored for all companies, and threshold.config entries of the customers. */
  rules: DemoRuleCounts;
  alerts: number;
  incidents: number;
  seconds: number;
}

/** The demo cannot be loaded here (already loaded, or no administrator to act as). */
export class DemoRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoRefused';
  }
}

interface CreatedAccount {
  plan: DemoAccountPlan;
  id: number;
  companyId: number;
  company: string;
  role: string;
  password: string;
}

interface CustomerSetup {
  customer: DemoCustomer;
  companyId: number;
  ingestKey: string;
}

/** A password nobody chose: 16 characters of base64url from 96 random bits. */
function generatedPassword(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * Loads the demo through the running application's own API: companies, units, roles, accounts,
 * ingest keys, indicators and detection rules as the provider's first administrator; then every
 * customer's traffic through the ingest endpoints in sensor-sized batches, and the YARA scan of
 * the attachments; then triage and incidents as the analysts. Refuses (DemoRefused) when any
 * demo company or account exists already.
 */
export async function loadDemo(
  app: FastifyInstance,
  db: Database,
  options: LoadDemoOptions = {},
): Promise<DemoSummary> {
  const started = Date.now();
  const scale = options.scale ?? 'default';
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const log = options.log ?? (() => undefined);
  const now = (options.now ?? new Date()).getTime();

  const existing = await existingDemoObjects(db);
  if (existing.length > 0) {
    throw new DemoRefused(`The demo data is already loaded (found ${existing.join(', ')}); nothing was changed.`);
  }
  const admin = await providerAdministrator(db);
  if (!admin) throw new DemoRefused('No active superuser of the provider company exists to set the demo up.');

  log(`Generating the ${scale} demo (seed ${seed})…`);
  const dataset = generateDemo({ seed, scale, now });
  const random = new Random(seed).fork('triage');

  const setup = await withTemporaryApiKey(db, admin.userId, (key) =>
    setUp(DemoApi.asUser(app, key), admin.companyId, dataset, log),
  );
  // Indicators queue a retro-hunt over stored events; let it finish before traffic arrives, so
  // a detection is never counted twice (once live, once by the hunt).
  await drainJobs(app, db, [RETRO_HUNT_JOB]);

  const customerIds = setup.customers.map((c) => c.companyId);
  const savedSearches = await withTemporaryApiKey(db, admin.userId, (key) =>
    createDemoSavedSearches(DemoApi.asUser(app, key), customerIds),
  );

  const events = { network: 0, endpoint: 0, mail: 0, rejected: 0 };
  for (const traffic of dataset.customers) {
    const company = setup.customers.find((c) => c.customer.key === traffic.customer.key)!;
    const counted = await sendTraffic(DemoApi.asSensor(app, company.ingestKey), traffic, seed, log);
    events.network += counted.network;
    events.endpoint += counted.endpoint;
    events.mail += counted.mail;
    events.rejected += counted.rejected;
  }
  // The mail's attachments queued a YARA scan of the warehouse; its alerts belong to the demo too.
  log('Scanning the mail attachments with the YARA rules…');
  await drainJobs(app, db, [YARA_SCAN_JOB]);

  log('Running the saved searches over the traffic…');
  await withTemporaryApiKey(db, admin.userId, (key) => runDemoSavedSearches(DemoApi.asUser(app, key), savedSearches));

  log('Taking stock of each customer’s estate…');
  const estateRandom = new Random(seed).fork('estate');
  await withTemporaryApiKey(db, admin.userId, async (key) => {
    for (const company of setup.customers) {
      await finishEstate(
        DemoApi.asUser(app, key),
        DemoApi.asSensor(app, company.ingestKey),
        company.customer,
        company.companyId,
        now,
        estateRandom.fork(company.customer.key),
      );
    }
  });

  const accountOf = (username: string) => setup.accounts.find((a) => a.plan.username === username)!;
  let incidents = 0;
  for (const company of setup.customers) {
    const analysts =
      company.customer.key === 'northwind'
        ? [accountOf('tom.ramirez')]
        : [accountOf('irina.volkova'), accountOf('omar.haddad')];
    incidents += await triage(app, db, company, analysts, dataset.files, random.fork(company.customer.key), now, log);
  }

  if (options.passwords === 'permanent') {
    for (const account of setup.accounts) {
      const next = generatedPassword();
      await withTemporaryApiKey(db, account.id, (key) =>
        DemoApi.asUser(app, key).post('/api/users/password/change/', {
          old_password: account.password,
          new_password: next,
          new_password_retry: next,
        }),
      );
      account.password = next;
    }
  }

  const alerts = await withTemporaryApiKey(db, admin.userId, (key) =>
    DemoApi.asUser(app, key).post<{ count: number }>('/api/alerts/count/', {
      company_id: setup.customers.map((c) => c.companyId),
    }),
  );
  return {
    seed,
    scale,
    companies: setup.customers.map((c) => ({ id: c.companyId, name: c.customer.name })),
    accounts: setup.accounts.map((a) => ({
      username: a.plan.username,
      password: a.password,
      mustChange: options.passwords !== 'permanent',
      company: a.company,
      companyId: a.companyId,
      role: a.role,
      fullName: `${a.plan.first} ${a.plan.last}`,
    })),
    events,
    rules: setup.rules,
    alerts: alerts.count,
    incidents,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

/** Runs due jobs until none of these kinds is waiting or running (at most ten minutes). */
async function drainJobs(app: FastifyInstance, db: Database, kinds: string[]): Promise<void> {
  const until = Date.now() + 10 * 60_000;
  while (Date.now() < until) {
    await app.jobs.runDueJobs();
    if ((await pendingJobs(db, kinds)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function setUp(
  api: DemoApi,
  providerId: number,
  dataset: DemoDataset,
  log: (line: string) => void,
): Promise<{ customers: CustomerSetup[]; accounts: CreatedAccount[]; rules: DemoRuleCounts }> {
  log('Creating companies, units, roles and accounts…');
  const accounts: CreatedAccount[] = [];
  const customers: CustomerSetup[] = [];

  const makeAccounts = async (
    companyId: number,
    companyName: string,
    plans: DemoAccountPlan[],
    units: string[],
    roles: { analyst: { name: string; permissions: Permission[] }; admin: { name: string; permissions: Permission[] } },
    provider: boolean,
    mailDomain: string | null,
  ) => {
    const unitIds = new Map<string, number>();
    for (const name of units) {
      const unit = await api.post<{ id: number }>('/api/units/', { name, company_id: companyId });
      unitIds.set(name, unit.id);
    }
    const roleIds = { analyst: 0, admin: 0 };
    for (const kind of ['analyst', 'admin'] as const) {
      const role = await api.post<{ id: number }>('/api/roles/', {
        name: roles[kind].name,
        description:
          kind === 'analyst'
            ? 'Triage of alerts and incidents, investigation of events.'
            : 'Administration of the company’s accounts, keys and indicators.',
        company_id: companyId,
        permissions: roles[kind].permissions,
      });
      roleIds[kind] = role.id;
    }
    for (const plan of plans) {
      const password = generatedPassword();
      const user = await api.post<{ id: number }>('/api/users/', {
        username: plan.username,
        first_name: plan.first,
        last_name: plan.last,
        ...(mailDomain ? { email: `${plan.first}.${plan.last}@${mailDomain}`.toLowerCase() } : {}),
        company_id: companyId,
        unit_id: plan.unit ? (unitIds.get(plan.unit) ?? null) : null,
        role_ids: [roleIds[plan.role]],
        ...(provider ? { all_companies: true } : {}),
        password,
      });
      accounts.push({ plan, id: user.id, companyId, company: companyName, role: roles[plan.role].name, password });
    }
  };

  const provider = await api.get<Company>(`/api/companies/${providerId}/`);
  await makeAccounts(
    providerId,
    provider.name,
    PROVIDER_ACCOUNTS,
    PROVIDER_UNITS,
    {
      analyst: { name: 'SOC analyst', permissions: ANALYST_PERMISSIONS },
      admin: { name: 'SOC lead', permissions: PROVIDER_LEAD_PERMISSIONS },
    },
    true,
    null,
  );

  for (const customer of CUSTOMERS) {
    const company = await api.post<Company>('/api/companies/', {
      name: customer.name,
      description: customer.description,
    });
    await makeAccounts(
      company.id,
      company.name,
      customer.accounts,
      customer.units,
      {
        analyst: { name: 'Security analyst', permissions: ANALYST_PERMISSIONS },
        admin: { name: 'Company administrator', permissions: CUSTOMER_ADMIN_PERMISSIONS },
      },
      false,
      customer.mailDomain,
    );
    const token = await api.post<{ key: string }>('/api/ingest/tokens/', {
      company_id: company.id,
      name: `${customer.sensor} and endpoint agents`,
    });
    customers.push({ customer, companyId: company.id, ingestKey: token.key });
    await setUpEstate(api, customer, company.id);
  }

  log('Planting indicators…');
  // One CSV import per company, and one for the provider's indicators that apply to every company.
  const files = new Map<string, string[][]>();
  const seen = new Set<string>();
  for (const setupOf of customers) {
    for (const plan of setupOf.customer.indicators) {
      const value = plan.value.startsWith('sha256:') ? dataset.files.get(plan.value.slice(7))?.sha256 : plan.value;
      if (!value) throw new Error(`the demo has no file ${plan.value.slice(7)}`);
      const target = plan.allCompanies ? 'all' : String(setupOf.companyId);
      if (seen.has(`${target}:${plan.type}:${value}`)) continue;
      seen.add(`${target}:${plan.type}:${value}`);
      const rows = files.get(target) ?? [['type', 'value', 'policy', 'severity', 'tags', 'source', 'description']];
      rows.push([plan.type, value, 'alert', plan.severity, plan.tags.join(';'), plan.source, plan.description]);
      files.set(target, rows);
    }
  }
  for (const [target, rows] of files) {
    const answer = await api.post<{ created: number; rejected: unknown[] }>('/api/indicators/import/', {
      csv: stringify(rows),
      ...(target === 'all' ? { all_companies: true } : { company_id: Number(target) }),
    });
    if (answer.rejected.length > 0) throw new Error(`indicators refused: ${JSON.stringify(answer.rejected)}`);
  }

  log('Importing the detection rules…');
  const rules = await importDemoRules(api, customers);
  return { customers, accounts, rules };
}

async function sendTraffic(
  sensor: DemoApi,
  traffic: CustomerTraffic,
  seed: number,
  log: (line: string) => void,
): Promise<{ network: number; endpoint: number; mail: number; rejected: number }> {
  const name = traffic.customer.name;
  const counted = { network: 0, endpoint: 0, mail: 0, rejected: 0 };
  const key = (kind: string, i: number) => `demo-${seed}-${traffic.customer.key}-${kind}-${i}`;
  const network = batches(traffic.network, NETWORK_BATCH);
  for (const [i, body] of network.entries()) {
    const answer = await sensor.ingest<IngestAnswer>(
      '/api/ingest/network/',
      body,
      'application/x-ndjson',
      key('network', i),
    );
    counted.network += answer.accepted;
    counted.rejected += answer.rejected.length;
  }
  log(`${name}: ${counted.network} network events in ${network.length} batches`);
  const endpoint = batches(traffic.endpoint, ENDPOINT_BATCH);
  for (const [i, body] of endpoint.entries()) {
    const answer = await sensor.ingest<IngestAnswer>(
      '/api/ingest/endpoint/',
      body,
      'application/x-ndjson',
      key('endpoint', i),
    );
    counted.endpoint += answer.accepted;
    counted.rejected += answer.rejected.length;
  }
  log(`${name}: ${counted.endpoint} endpoint events in ${endpoint.length} batches`);
  // The relay hands the fortnight's mail over now: each message says when it really arrived, so the
  // mail list and its files' sightings keep the traffic's own times, not the minute of the load.
  for (const [i, mail] of traffic.mail.entries()) {
    const receivedAt = encodeURIComponent(new Date(mail.receivedAt).toISOString());
    const answer = await sensor.ingest<IngestAnswer>(
      `/api/ingest/mail/?received_at=${receivedAt}`,
      mail.raw,
      'message/rfc822',
      key('mail', i),
    );
    counted.mail += answer.accepted;
    counted.rejected += answer.rejected.length;
  }
  log(`${name}: ${counted.mail} mail messages`);
  return counted;
}

const SCAN_RULES = new Set([2001219, 2002910, 2009582, 2024364, 2010935, 2035466]);
const POLICY_RULES = new Set([2013028, 2012648, 2033966, 2014726]);
const INFO_RULES = new Set([2027865, 2031071]);

/**
 * An analyst's day: assigns and closes background alerts the way a SOC does, then opens the
 * incidents of the story with comments and tasks. Answers how many incidents the company has.
 */
async function triage(
  app: FastifyInstance,
  db: Database,
  company: CustomerSetup,
  analysts: CreatedAccount[],
  files: Map<string, DemoFile>,
  random: Random,
  now: number,
  log: (line: string) => void,
): Promise<number> {
  const lead = analysts[0]!;
  return withTemporaryApiKey(db, lead.id, async (key) => {
    const api = DemoApi.asUser(app, key);
    const alerts = await api.all<Alert>('/api/alerts/', { company_id: company.companyId }, 'first_seen');
    const plans = incidentPlans(company.customer, (name) => {
      const file = files.get(name);
      if (!file) throw new Error(`the demo has no file ${name}`);
      return file.sha256;
    });
    const inStory = (alert: Alert) => plans.some((p) => p.matches(alert));
    const assignee = () => random.pick(analysts).id;
    let resolved = 0;
    for (const alert of alerts) {
      const f = facts(alert);
      const age = now - Date.parse(alert.first_seen);
      if (inStory(alert) || age < 6 * HOUR) continue;
      let decision: { status: 'resolved' | 'closed' | 'in_progress'; resolution?: string; comment?: string } | null =
        null;
      if (alert.severity === 'info' || (f.rule !== null && INFO_RULES.has(f.rule))) {
        if (random.chance(0.7)) decision = { status: 'closed', resolution: 'benign' };
      } else if (f.rule !== null && SCAN_RULES.has(f.rule)) {
        if (age > 2 * DAY && random.chance(0.75))
          decision = {
            status: 'closed',
            resolution: 'benign',
            ...(random.chance(0.15)
              ? { comment: 'Internet scanner; the perimeter firewall dropped the follow-up connections.' }
              : {}),
          };
      } else if (f.rule !== null && POLICY_RULES.has(f.rule)) {
        decision = random.weighted([
          [
            {
              status: 'resolved',
              resolution: 'false_positive',
              comment: 'Sanctioned use; the tool is on the approved software list.',
            },
            3,
          ],
          [{ status: 'resolved', resolution: 'benign' }, 3],
          [{ status: 'in_progress' }, 2],
          [null, 2],
        ] as const) as typeof decision;
      } else if (alert.severity === 'low') {
        if (random.chance(0.6))
          decision = {
            status: 'resolved',
            resolution: 'true_positive',
            comment: 'Reported to the user; no action needed.',
          };
      } else if (random.chance(0.4)) {
        decision = { status: 'in_progress' };
      }
      if (!decision) continue;
      await api.patch(`/api/alerts/${alert.id}/`, { assignee_id: assignee(), status: 'in_progress' });
      if (decision.comment) await api.post(`/api/alerts/${alert.id}/comments/`, { body: decision.comment });
      if (decision.status !== 'in_progress') {
        await api.patch(`/api/alerts/${alert.id}/`, { status: decision.status, resolution: decision.resolution });
        resolved++;
      }
    }
    log(`${company.customer.name}: ${alerts.length} alerts, ${resolved} resolved or closed by the analysts`);

    for (const plan of plans) {
      const ids = alerts.filter(plan.matches).map((a) => a.id);
      if (ids.length === 0) continue;
      const owner = random.pick(analysts);
      const incident = await api.post<{ id: number }>('/api/incidents/', {
        title: plan.title,
        description: plan.description,
        severity: plan.severity,
        alert_ids: ids.slice(0, 1000),
        ...(plan.outcome === 'open' ? {} : { assignee_id: owner.id }),
      });
      if (plan.outcome !== 'open') {
        await api.patch(`/api/incidents/${incident.id}/`, { status: 'investigating' });
        for (const id of ids) await api.patch(`/api/alerts/${id}/`, { assignee_id: owner.id, status: 'in_progress' });
      }
      for (const body of plan.comments) await api.post(`/api/incidents/${incident.id}/comments/`, { body });
      for (const task of plan.tasks) {
        await api.post(`/api/incidents/${incident.id}/tasks/`, {
          title: task.title,
          status: task.status,
          assignee_id: owner.id,
          ...(task.dueInHours ? { due_at: new Date(Date.now() + task.dueInHours * HOUR).toISOString() } : {}),
        });
      }
      if (plan.outcome === 'resolved') {
        await api.patch(`/api/incidents/${incident.id}/`, { status: 'contained' });
        for (const id of ids)
          await api.patch(`/api/alerts/${id}/`, { status: 'resolved', resolution: 'true_positive' });
        await api.patch(`/api/incidents/${incident.id}/`, { status: 'resolved' });
      }
    }
    const count = await api.post<{ count: number }>('/api/incidents/count/', { company_id: company.companyId });
    return count.count;
  });
}
