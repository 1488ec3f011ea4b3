import type { AlertSeverity } from '../pipeline/detections';

/**
 * The fictional world of the demo: two customers of the provider, their people, machines and
 * sensors, and the threats that reach them. Addresses of attackers are in the documentation
 * ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24); attacker domains are invented.
 */

export type DemoScale = 'small' | 'default' | 'large';
export const demoScales = ['small', 'default', 'large'] as const satisfies readonly DemoScale[];

/** Events per customer and scale: [network, endpoint, mail]. */
export const scaleSizes: Record<DemoScale, { network: number; endpoint: number; mail: number }> = {
  small: { network: 160, endpoint: 70, mail: 10 },
  default: { network: 10_000, endpoint: 2_500, mail: 75 },
  large: { network: 100_000, endpoint: 25_000, mail: 300 },
};

export interface DemoPerson {
  first: string;
  last: string;
  /** Windows / directory account name. */
  account: string;
  unit: string;
}

export interface DemoHost {
  name: string;
  ip: string;
  os: 'windows' | 'linux';
  osName: string;
  /** Account of the person who works on it; servers run as service accounts. */
  owner: string | null;
  role: 'workstation' | 'server';
}

/** A console account the demo creates (generated password). */
export interface DemoAccountPlan {
  username: string;
  first: string;
  last: string;
  role: 'analyst' | 'admin';
  unit: string | null;
}

/** A planted policy indicator, created through the indicators API before the traffic. */
export interface DemoIndicatorPlan {
  type: 'ip' | 'cidr' | 'domain' | 'url' | 'email' | 'md5' | 'sha1' | 'sha256' | 'filename';
  /** A literal value, or the name of a file of the scenario whose SHA-256 is meant (`sha256:<file>`). */
  value: string;
  severity: AlertSeverity;
  description: string;
  tags: string[];
  source: string;
  /** An indicator the provider keeps for every company. */
  allCompanies?: boolean;
}

export interface DemoCustomer {
  key: 'northwind' | 'aurora';
  name: string;
  description: string;
  mailDomain: string;
  /** Lookalike domain the phishing comes from. */
  lookalike: string;
  adDomain: string;
  netPrefix: string;
  sensor: string;
  resolver: string;
  gateway: string;
  units: string[];
  people: DemoPerson[];
  hosts: DemoHost[];
  accounts: DemoAccountPlan[];
  /** Correspondents of everyday mail. */
  partners: { name: string; address: string }[];
  indicators: DemoIndicatorPlan[];
  /** Endpoint events of this company arrive as EVTX exports (Sysmon, Security) or as ECS from an agent. */
  windowsFormat: 'evtx' | 'ecs';
}

export const PROVIDER_ACCOUNTS: DemoAccountPlan[] = [
  { username: 'irina.volkova', first: 'Irina', last: 'Volkova', role: 'analyst', unit: 'Security Operations Centre' },
  { username: 'mark.hollis', first: 'Mark', last: 'Hollis', role: 'admin', unit: 'Security Operations Centre' },
];
export const PROVIDER_UNITS = ['Security Operations Centre'];

/** Infrastructure both customers share the internet with: attacker hosts. */
export const THREATS = {
  /** Command-and-control server of the macro campaign. */
  c2Ip: '203.0.113.45',
  c2Domain: 'cdn-telemetry-sync.net',
  /** Team server known to the provider, kept as an indicator for every company. */
  teamServerIp: '203.0.113.66',
  /** Host serving the PowerShell stager. */
  stagerIp: '198.51.100.23',
  stagerUrl: 'http://198.51.100.23/content/upd.ps1',
  /** Credential-phishing landing page. */
  phishDomain: 'sec-verify-portal.top',
  phishUrlPath: '/o365/login.php',
  /** Host serving the fake lab-results executable. */
  payloadIp: '198.51.100.77',
  payloadDomain: 'labresults-share.xyz',
  scanners: ['192.0.2.14', '192.0.2.77', '192.0.2.201'],
  tracker: 'tracker.example',
} as const;

export const CUSTOMERS: DemoCustomer[] = [
  {
    key: 'northwind',
    name: 'Northwind Logistics',
    description: 'Freight forwarding and warehousing; two depots and a head office.',
    mailDomain: 'northwind-logistics.com',
    lookalike: 'northwlnd-logistics.com',
    adDomain: 'NORTHWIND',
    netPrefix: '10.20',
    sensor: 'nw-sensor-01',
    resolver: '10.20.0.53',
    gateway: '10.20.0.1',
    units: ['Head office', 'Finance', 'Depot Rotterdam', 'IT'],
    people: [
      { first: 'James', last: 'Miller', account: 'j.miller', unit: 'Finance' },
      { first: 'Sofia', last: 'Jansen', account: 's.jansen', unit: 'Finance' },
      { first: 'Pieter', last: 'de Vries', account: 'p.devries', unit: 'Depot Rotterdam' },
      { first: 'Anna', last: 'Kowalski', account: 'a.kowalski', unit: 'Head office' },
      { first: 'Ravi', last: 'Nair', account: 'r.nair', unit: 'IT' },
      { first: 'Emma', last: 'Brooks', account: 'e.brooks', unit: 'Head office' },
      { first: 'Lucas', last: 'Bakker', account: 'l.bakker', unit: 'Depot Rotterdam' },
      { first: 'Grace', last: 'Okafor', account: 'g.okafor', unit: 'Finance' },
      { first: 'Henrik', last: 'Lund', account: 'h.lund', unit: 'IT' },
      { first: 'Maria', last: 'Costa', account: 'm.costa', unit: 'Head office' },
    ],
    hosts: [
      {
        name: 'NW-WS-011',
        ip: '10.20.1.11',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 'a.kowalski',
        role: 'workstation',
      },
      {
        name: 'NW-WS-014',
        ip: '10.20.1.14',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 'e.brooks',
        role: 'workstation',
      },
      {
        name: 'NW-WS-017',
        ip: '10.20.1.17',
        os: 'windows',
        osName: 'Windows 10 Enterprise 22H2',
        owner: 'j.miller',
        role: 'workstation',
      },
      {
        name: 'NW-WS-019',
        ip: '10.20.1.19',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 's.jansen',
        role: 'workstation',
      },
      {
        name: 'NW-WS-023',
        ip: '10.20.1.23',
        os: 'windows',
        osName: 'Windows 10 Enterprise 22H2',
        owner: 'g.okafor',
        role: 'workstation',
      },
      {
        name: 'NW-WS-031',
        ip: '10.20.2.31',
        os: 'windows',
        osName: 'Windows 10 Enterprise 22H2',
        owner: 'p.devries',
        role: 'workstation',
      },
      {
        name: 'NW-WS-032',
        ip: '10.20.2.32',
        os: 'windows',
        osName: 'Windows 10 Enterprise 22H2',
        owner: 'l.bakker',
        role: 'workstation',
      },
      {
        name: 'NW-WS-040',
        ip: '10.20.1.40',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 'm.costa',
        role: 'workstation',
      },
      {
        name: 'NW-IT-002',
        ip: '10.20.3.2',
        os: 'windows',
        osName: 'Windows 11 Enterprise 23H2',
        owner: 'r.nair',
        role: 'workstation',
      },
      {
        name: 'NW-IT-003',
        ip: '10.20.3.3',
        os: 'windows',
        osName: 'Windows 11 Enterprise 23H2',
        owner: 'h.lund',
        role: 'workstation',
      },
      {
        name: 'NW-DC-01',
        ip: '10.20.10.5',
        os: 'windows',
        osName: 'Windows Server 2022 Standard',
        owner: null,
        role: 'server',
      },
      {
        name: 'NW-SRV-FS01',
        ip: '10.20.10.12',
        os: 'windows',
        osName: 'Windows Server 2019 Standard',
        owner: null,
        role: 'server',
      },
      { name: 'NW-SRV-ERP', ip: '10.20.10.20', os: 'linux', osName: 'Ubuntu 22.04.4 LTS', owner: null, role: 'server' },
      {
        name: 'NW-SRV-WEB',
        ip: '10.20.10.30',
        os: 'linux',
        osName: 'Debian GNU/Linux 12',
        owner: null,
        role: 'server',
      },
    ],
    accounts: [
      { username: 'dana.fischer', first: 'Dana', last: 'Fischer', role: 'admin', unit: 'IT' },
      { username: 'tom.ramirez', first: 'Tom', last: 'Ramirez', role: 'analyst', unit: 'IT' },
    ],
    partners: [
      { name: 'Hanseatic Freight Billing', address: 'billing@hanseatic-freight.de' },
      { name: 'Port of Rotterdam Portal', address: 'noreply@portbase-notify.nl' },
      { name: 'Ellis Customs Brokerage', address: 'd.ellis@ellis-customs.co.uk' },
      { name: 'Marston Fuel Cards', address: 'statements@marston-fuel.com' },
    ],
    indicators: [
      {
        type: 'sha256',
        value: 'sha256:Invoice_INV-88231.doc',
        severity: 'critical',
        description: 'Macro document of the fake-invoice campaign (drops a DLL started by rundll32).',
        tags: ['phishing', 'macro', 'campaign:fake-invoice'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'sha256',
        value: 'sha256:msoffsync.dll',
        severity: 'critical',
        description: 'Loader DLL dropped by the invoice macro; beacons over TLS.',
        tags: ['malware', 'loader'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'ip',
        value: '203.0.113.45',
        severity: 'critical',
        description: 'Command-and-control server of the fake-invoice campaign.',
        tags: ['c2'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'domain',
        value: 'cdn-telemetry-sync.net',
        severity: 'high',
        description: 'C2 domain of the loader (resolves to 203.0.113.45).',
        tags: ['c2'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'domain',
        value: 'northwlnd-logistics.com',
        severity: 'high',
        description: 'Lookalike of northwind-logistics.com (l for i), registered last month.',
        tags: ['lookalike', 'phishing'],
        source: 'Brand monitoring',
      },
      {
        type: 'url',
        value: 'http://198.51.100.23/content/upd.ps1',
        severity: 'medium',
        description: 'PowerShell stager download.',
        tags: ['stager'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'filename',
        value: 'mimikatz.exe',
        severity: 'high',
        description: 'Credential dumping tool; never legitimate on company machines.',
        tags: ['credential-access'],
        source: 'Company policy',
      },
      {
        type: 'domain',
        value: 'speedtest.net',
        severity: 'info',
        description: 'Bandwidth tests from the office network (policy: report only).',
        tags: ['policy'],
        source: 'Company policy',
      },
      {
        type: 'email',
        value: 'offers@freight-rates-weekly.biz',
        severity: 'low',
        description: 'Bulk sender of unsolicited freight-rate offers.',
        tags: ['spam'],
        source: 'Company policy',
      },
      {
        type: 'ip',
        value: '203.0.113.66',
        severity: 'critical',
        description: 'Cobalt Strike team server seen against several customers.',
        tags: ['c2', 'cobalt-strike'],
        source: 'Provider threat intelligence',
        allCompanies: true,
      },
      {
        type: 'domain',
        value: 'sec-verify-portal.top',
        severity: 'medium',
        description: 'Credential-phishing pages imitating the Microsoft 365 sign-in.',
        tags: ['phishing', 'credential-theft'],
        source: 'Provider threat intelligence',
        allCompanies: true,
      },
    ],
    windowsFormat: 'evtx',
  },
  {
    key: 'aurora',
    name: 'Aurora Clinic',
    description: 'Private outpatient clinic with a diagnostic laboratory.',
    mailDomain: 'aurora-clinic.org',
    lookalike: 'aurora-cllnic.org',
    adDomain: 'AURORA',
    netPrefix: '10.40',
    sensor: 'ac-sensor-01',
    resolver: '10.40.0.53',
    gateway: '10.40.0.1',
    units: ['Reception', 'Laboratory', 'Administration', 'IT'],
    people: [
      { first: 'Helen', last: 'Carter', account: 'h.carter', unit: 'Reception' },
      { first: 'Daniel', last: 'Reyes', account: 'd.reyes', unit: 'Laboratory' },
      { first: 'Olga', last: 'Ivanova', account: 'o.ivanova', unit: 'Laboratory' },
      { first: 'Samuel', last: 'Adeyemi', account: 's.adeyemi', unit: 'Administration' },
      { first: 'Claire', last: 'Dubois', account: 'c.dubois', unit: 'Administration' },
      { first: 'Yusuf', last: 'Kaya', account: 'y.kaya', unit: 'IT' },
      { first: 'Mia', last: 'Schneider', account: 'm.schneider', unit: 'Reception' },
    ],
    hosts: [
      {
        name: 'AC-REC-01',
        ip: '10.40.1.21',
        os: 'windows',
        osName: 'Windows 10 Pro 22H2',
        owner: 'h.carter',
        role: 'workstation',
      },
      {
        name: 'AC-REC-02',
        ip: '10.40.1.22',
        os: 'windows',
        osName: 'Windows 10 Pro 22H2',
        owner: 'm.schneider',
        role: 'workstation',
      },
      {
        name: 'AC-LAB-01',
        ip: '10.40.2.11',
        os: 'windows',
        osName: 'Windows 10 Enterprise LTSC 2021',
        owner: 'd.reyes',
        role: 'workstation',
      },
      {
        name: 'AC-LAB-02',
        ip: '10.40.2.12',
        os: 'windows',
        osName: 'Windows 10 Enterprise LTSC 2021',
        owner: 'o.ivanova',
        role: 'workstation',
      },
      {
        name: 'AC-ADM-03',
        ip: '10.40.3.13',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 's.adeyemi',
        role: 'workstation',
      },
      {
        name: 'AC-ADM-04',
        ip: '10.40.3.14',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 'c.dubois',
        role: 'workstation',
      },
      {
        name: 'AC-IT-01',
        ip: '10.40.3.30',
        os: 'windows',
        osName: 'Windows 11 Pro 23H2',
        owner: 'y.kaya',
        role: 'workstation',
      },
      {
        name: 'AC-DC-01',
        ip: '10.40.10.5',
        os: 'windows',
        osName: 'Windows Server 2022 Standard',
        owner: null,
        role: 'server',
      },
      { name: 'AC-PACS-01', ip: '10.40.10.40', os: 'linux', osName: 'Rocky Linux 9.3', owner: null, role: 'server' },
      { name: 'AC-EHR-DB', ip: '10.40.10.50', os: 'linux', osName: 'Ubuntu 22.04.4 LTS', owner: null, role: 'server' },
      {
        name: 'AC-RDS-01',
        ip: '10.40.10.60',
        os: 'windows',
        osName: 'Windows Server 2019 Standard',
        owner: null,
        role: 'server',
      },
    ],
    accounts: [
      { username: 'lena.sokolova', first: 'Lena', last: 'Sokolova', role: 'admin', unit: 'IT' },
      { username: 'omar.haddad', first: 'Omar', last: 'Haddad', role: 'analyst', unit: 'IT' },
    ],
    partners: [
      { name: 'Medilab Supplies', address: 'orders@medilab-supplies.eu' },
      { name: 'Regional Health Insurance', address: 'claims@rhi-claims.org' },
      { name: 'Dr. Paul Whitman', address: 'p.whitman@whitman-cardiology.com' },
      { name: 'PACS Vendor Support', address: 'support@orthanc-imaging.net' },
    ],
    indicators: [
      {
        type: 'sha256',
        value: 'sha256:Lab_Results_2291.pdf.exe',
        severity: 'critical',
        description: 'Fake lab-results executable (information stealer).',
        tags: ['malware', 'stealer'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'ip',
        value: '198.51.100.77',
        severity: 'high',
        description: 'Hosts the fake lab-results payload.',
        tags: ['malware-hosting'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'domain',
        value: 'labresults-share.xyz',
        severity: 'high',
        description: 'Download site of the fake lab results.',
        tags: ['malware-hosting'],
        source: 'Provider threat intelligence',
      },
      {
        type: 'domain',
        value: 'aurora-cllnic.org',
        severity: 'high',
        description: 'Lookalike of aurora-clinic.org (ll for li).',
        tags: ['lookalike', 'phishing'],
        source: 'Brand monitoring',
      },
      {
        type: 'filename',
        value: 'anydesk.exe',
        severity: 'low',
        description: 'Remote-access tool outside the approved list (policy).',
        tags: ['policy', 'remote-access'],
        source: 'Company policy',
      },
      {
        type: 'domain',
        value: 'speedtest.net',
        severity: 'info',
        description: 'Bandwidth tests (policy: report only).',
        tags: ['policy'],
        source: 'Company policy',
      },
    ],
    windowsFormat: 'ecs',
  },
];
