import type { Asset, Employee, EmployeeImportAnswer } from '@vigil/contract';
import { stringify } from 'csv-stringify/sync';
import type { DemoApi } from './api';
import type { Random } from './random';
import type { DemoCustomer, DemoHost, DemoPerson } from './scenario';

/*
 * The demo's estate: each customer declares its internal network (so its flows make assets), imports
 * its staff from one CSV as an HR export would give it, and — once the traffic has made the assets —
 * says who owns which machine and how critical it is, and sends each host's software inventory the
 * way its agent would (osquery `programs` on Windows, ECS package documents on Linux).
 */

/** A job title by unit; the first person of a unit leads it. */
const TITLES: Record<string, [lead: string, member: string]> = {
  Finance: ['Finance manager', 'Accountant'],
  IT: ['IT manager', 'Systems administrator'],
  'Head office': ['Office manager', 'Coordinator'],
  'Depot Rotterdam': ['Depot manager', 'Logistics planner'],
  Reception: ['Front desk supervisor', 'Receptionist'],
  Laboratory: ['Head of laboratory', 'Laboratory technician'],
  Administration: ['Practice administrator', 'Medical secretary'],
};
const DEFAULT_TITLE: [string, string] = ['Team lead', 'Specialist'];

/** The employee CSV of a customer: one row per person, managers named by the lead's full name. */
export function employeeCsv(customer: DemoCustomer): string {
  const leads = new Map<string, DemoPerson>();
  for (const person of customer.people) if (!leads.has(person.unit)) leads.set(person.unit, person);
  const head = customer.people.find((p) => p.unit === 'IT') ?? customer.people[0]!;
  const rows = customer.people.map((person, n) => {
    const lead = leads.get(person.unit)!;
    const [leadTitle, memberTitle] = TITLES[person.unit] ?? DEFAULT_TITLE;
    const manager =
      lead === person ? (person === head ? '' : `${head.first} ${head.last}`) : `${lead.first} ${lead.last}`;
    return [
      `${person.first} ${person.last}`,
      `${person.account}@${customer.mailDomain}`,
      `${customer.adDomain}\\${person.account}`,
      person.unit,
      lead === person ? leadTitle : memberTitle,
      manager,
      `+31 10 555 ${String(100 + n * 7).padStart(4, '0')}`,
      person.unit,
    ];
  });
  return stringify([['full_name', 'emails', 'accounts', 'department', 'title', 'manager', 'phone', 'unit'], ...rows]);
}

/** Before the traffic: the customer's internal network and its staff. */
export async function setUpEstate(api: DemoApi, customer: DemoCustomer, companyId: number): Promise<void> {
  await api.put('/api/assets/networks/', { company_id: companyId, cidrs: [`${customer.netPrefix}.0.0/16`] });
  const answer = await api.post<EmployeeImportAnswer>('/api/employees/import/', {
    company_id: companyId,
    csv: employeeCsv(customer),
  });
  if (answer.rejected.length > 0) throw new Error(`employees refused: ${JSON.stringify(answer.rejected)}`);
}

interface Package {
  vendor: string;
  name: string;
  /** Versions in the estate; a host gets one of them (the first most often). */
  versions: string[];
}

const WINDOWS_SOFTWARE: Package[] = [
  {
    vendor: 'Microsoft Corporation',
    name: 'Microsoft 365 Apps for enterprise - en-us',
    versions: ['16.0.17928.20114'],
  },
  { vendor: 'Google LLC', name: 'Google Chrome', versions: ['131.0.6778.86', '130.0.6723.117'] },
  { vendor: 'Igor Pavlov', name: '7-Zip 23.01 (x64)', versions: ['23.01'] },
  { vendor: 'Adobe', name: 'Adobe Acrobat Reader (64-bit)', versions: ['24.004.20272', '23.008.20470'] },
  { vendor: 'Microsoft Corporation', name: 'Microsoft Teams', versions: ['24295.605.3225.8804'] },
  { vendor: 'Zoom Video Communications, Inc.', name: 'Zoom Workplace (64-bit)', versions: ['6.2.11.55407'] },
  { vendor: 'Notepad++ Team', name: 'Notepad++ (64-bit x64)', versions: ['8.6.9'] },
];
const WINDOWS_SERVER_SOFTWARE: Package[] = [
  { vendor: 'Microsoft Corporation', name: 'Microsoft SQL Server 2019 (64-bit)', versions: ['15.0.4395.2'] },
  { vendor: 'VMware, Inc.', name: 'VMware Tools', versions: ['12.4.5.23787635'] },
  { vendor: 'Veeam Software Group GmbH', name: 'Veeam Agent for Microsoft Windows', versions: ['6.2.0.121'] },
];
const IT_SOFTWARE: Package[] = [
  { vendor: 'Simon Tatham', name: 'PuTTY release 0.81 (64-bit)', versions: ['0.81.0.0'] },
  { vendor: 'Wireshark Foundation', name: 'Wireshark 4.2.6 x64', versions: ['4.2.6'] },
];
const LINUX_SOFTWARE: Package[] = [
  { vendor: 'Ubuntu Developers', name: 'openssl', versions: ['3.0.2-0ubuntu1.18'] },
  { vendor: 'Ubuntu Developers', name: 'openssh-server', versions: ['1:8.9p1-3ubuntu0.10'] },
  { vendor: 'Ubuntu Developers', name: 'nginx', versions: ['1.18.0-6ubuntu14.5'] },
  { vendor: 'Ubuntu Developers', name: 'postgresql-14', versions: ['14.13-0ubuntu0.22.04.1'] },
  { vendor: 'Ubuntu Developers', name: 'bash', versions: ['5.1-6ubuntu1.1'] },
  { vendor: 'Ubuntu Developers', name: 'curl', versions: ['7.81.0-1ubuntu1.18'] },
];

/** The packages of a host, with the version it runs. */
function softwareOf(host: DemoHost, random: Random): { pkg: Package; version: string }[] {
  const packages =
    host.os === 'linux'
      ? LINUX_SOFTWARE
      : host.role === 'server'
        ? [...WINDOWS_SOFTWARE.slice(1, 3), ...WINDOWS_SERVER_SOFTWARE]
        : [...WINDOWS_SOFTWARE, ...(host.name.includes('-IT-') ? IT_SOFTWARE : [])];
  return packages.map((pkg) => ({
    pkg,
    version: pkg.versions.length > 1 && random.chance(0.3) ? pkg.versions[1]! : pkg.versions[0]!,
  }));
}

/** The inventory lines a host's agent sends: osquery `programs` results on Windows, ECS packages on Linux. */
export function inventoryLines(host: DemoHost, customer: DemoCustomer, at: Date, random: Random): string[] {
  const fqdn = `${host.name.toLowerCase()}.${customer.adDomain.toLowerCase()}.local`;
  const installed = new Date(at.getTime() - 86_400_000 * (30 + random.int(0, 300)));
  const rpm = /rocky|red hat|centos|alma/i.test(host.osName);
  return softwareOf(host, random).map(({ pkg, version }) =>
    JSON.stringify(
      host.os === 'linux'
        ? {
            '@timestamp': at.toISOString(),
            host: { name: host.name.toLowerCase(), hostname: fqdn, os: { family: rpm ? 'redhat' : 'debian' } },
            event: { dataset: 'system.package', action: 'existing_package', category: ['package'], kind: 'state' },
            package: {
              name: pkg.name,
              version: rpm ? version.replace(/ubuntu.*$/, '.el9').replace(/^\d+:/, '') : version,
              type: rpm ? 'rpm' : 'deb',
              vendor: rpm ? 'Rocky Enterprise Software Foundation' : pkg.vendor,
              installed: installed.toISOString(),
            },
          }
        : {
            name: 'pack_inventory_programs',
            hostIdentifier: host.name,
            calendarTime: at.toUTCString(),
            unixTime: Math.floor(at.getTime() / 1000),
            action: 'added',
            columns: {
              name: pkg.name,
              version,
              publisher: pkg.vendor,
              install_date: installed.toISOString().slice(0, 10).replaceAll('-', ''),
            },
          },
    ),
  );
}

/** How critical a host is to its company, and its tags. */
function standing(host: DemoHost): { criticality: Asset['criticality']; tags: string[] } {
  if (host.role === 'workstation') return { criticality: host.name.includes('-IT-') ? 'high' : 'medium', tags: [] };
  if (/-DC-/.test(host.name)) return { criticality: 'critical', tags: ['domain-controller'] };
  if (/ERP|FS|FILE|EHR|PACS/.test(host.name)) return { criticality: 'critical', tags: ['business-critical'] };
  return { criticality: 'high', tags: ['internet-facing'] };
}

/**
 * After the traffic: owners and criticality on the assets discovery made of the customer's hosts, and
 * each host's software inventory through the sensor's ingest key.
 */
export async function finishEstate(
  api: DemoApi,
  sensor: DemoApi,
  customer: DemoCustomer,
  companyId: number,
  now: number,
  random: Random,
): Promise<{ assets: number; employees: number }> {
  const assets = await api.all<Asset>('/api/assets/', { company_id: companyId });
  const employees = await api.all<Employee>('/api/employees/', { company_id: companyId });
  const employeeOf = (account: string) =>
    employees.find((e) => e.accounts.some((a) => a.toLowerCase().endsWith(`\\${account.toLowerCase()}`)));
  for (const host of customer.hosts) {
    const asset = assets.find((a) => a.name.toLowerCase().split('.')[0] === host.name.toLowerCase());
    if (!asset) continue;
    const owner = host.owner ? employeeOf(host.owner) : undefined;
    await api.patch(`/api/assets/${asset.id}/`, {
      ...standing(host),
      kind: host.role,
      // What no sensor says, the administrator writes down.
      ...(asset.os_name === '' ? { os_name: host.osName } : {}),
      ...(owner ? { owner_employee_id: owner.id } : {}),
    });
  }
  const lines = customer.hosts.flatMap((host) => inventoryLines(host, customer, new Date(now - 3_600_000), random));
  await sensor.ingest(
    '/api/ingest/endpoint/',
    lines.join('\n'),
    'application/x-ndjson',
    `demo-inventory-${customer.key}`,
  );
  return { assets: assets.length, employees: employees.length };
}
